import { describe, expect, it } from 'vitest';
import { messages, PACKS } from '@terrafund/contracts';
import { apiCaller, createUser, loginAs, useAdmin, useTestApp } from '../../../test/test-app';
import { ADDRESSES, bookAddress, txHashFor, withdrawalBody } from '../../../test/withdrawals';
import { memberAccount, memberBalance, platformAccount, postEntry } from '../ledger';
import { checkLedger } from '../reports';

describe('plans, transactions and withdrawals', () => {
  const ctx = useTestApp();
  const admin = useAdmin(ctx);

  const call = apiCaller(() => ctx);

  /** A member with approved KYC and `cents` in the wallet (credited as the payout job will credit it). */
  async function fundedMember(cents: number) {
    const user = await createUser(ctx, { kycStatus: 'approved', kycVerified: true });
    if (cents > 0) {
      await ctx.database.db.transaction(async (tx) => {
        const wallet = await memberAccount(tx, user.id, 'member_wallet');
        const source = await platformAccount(tx, 'platform_dividends_paid');
        await postEntry(tx, { clock: ctx.clock }, {
          kind: 'payout',
          idempotencyKey: `test-fund:${user.id}`,
          description: 'test funding',
          lines: [
            { accountId: wallet, amountCents: cents },
            { accountId: source, amountCents: -cents },
          ],
        });
      });
    }
    // The member's Bitcoin address is confirmed already: these withdrawals wait for an admin at once.
    await bookAddress(ctx, user.id);
    return { user, token: await loginAs(ctx, user.email) };
  }

  const withdraw = (token: string, amount: unknown, walletAddress: unknown = ADDRESSES.BTC) =>
    call('POST', '/transactions', token, { ...withdrawalBody(amount, { walletAddress }), _id: 'x', status: 'completed', userId: 'someone' });
  const withdrawWithoutAddress = (token: string, amount: unknown) =>
    call('POST', '/transactions', token, { type: 'withdrawal', amount, asset: 'BTC' });

  it('lists the four packs publicly', async () => {
    const response = await call('GET', '/plans');
    expect(response.statusCode).toBe(200);
    const plans = response.json();
    expect(plans.map((p: { id: string; price: number }) => [p.id, p.price])).toEqual(PACKS.map((p) => [p.id, p.price]));
    expect(plans.find((p: { id: string }) => p.id === 'gold')).toMatchObject({ popular: true, dailyDividend: 10, annualDividends: 2600 });
  });

  it('holds a withdrawal at once, ignoring the status and user the client sends', async () => {
    const { user, token } = await fundedMember(10_000);
    const response = await withdraw(token, 40.5);
    expect(response.statusCode).toBe(201);
    const { transaction } = response.json();
    expect(transaction).toMatchObject({ type: 'withdrawal', amount: 40.5, status: 'pending', userId: user.id, walletAddress: ADDRESSES.BTC });
    expect(await memberBalance(ctx.database.db, user.id, 'member_wallet')).toBe(10_000 - 4_050);
    const profile = await call('GET', '/users/profile', token);
    expect(profile.json().balance).toBe(59.5);
    const list = await call('GET', '/transactions', token);
    expect(list.json().map((t: { _id: string }) => t._id)).toEqual([transaction._id]);
  });

  it('mails the member the amount, address and time of every withdrawal it holds, and of no refused one', async () => {
    const { user, token } = await fundedMember(10_000);
    await ctx.deliverMail();
    const at = `${ctx.clock.now().toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    const response = await withdraw(token, 40.5);
    expect(response.statusCode).toBe(201);
    expect((await withdraw(token, 1_000)).statusCode).toBe(400);

    const mail = (await ctx.deliverMail()).filter((m) => m.to === user.email);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toBe('A withdrawal was requested from your account | Terrafund');
    expect(mail[0]!.text).toContain(`A withdrawal of 40.50 Crypto was requested from your account on ${at}, to this address:`);
    expect(mail[0]!.text).toContain(ADDRESSES.BTC);
    expect(mail[0]!.text).toContain('support@terrafund.test');
    expect(mail[0]!.html).toContain(ADDRESSES.BTC);
  });

  it('answers each rule with the spec message and moves nothing', async () => {
    const { user, token } = await fundedMember(3_000);
    const cases: [unknown, unknown, string][] = [
      [50, '', messages.wallet.walletAddressRequired],
      [50, 'bc1q', messages.withdrawals.invalidAddress('Bitcoin')],
      [0, ADDRESSES.BTC, messages.wallet.amountInvalid],
      [-5, ADDRESSES.BTC, messages.wallet.amountInvalid],
      ['fifty', ADDRESSES.BTC, messages.wallet.amountInvalid],
      [25.001, ADDRESSES.BTC, messages.wallet.amountInvalid],
      [24.99, ADDRESSES.BTC, messages.wallet.minWithdrawal],
      [30.01, ADDRESSES.BTC, messages.wallet.insufficientBalance],
    ];
    for (const [amount, address, message] of cases) {
      const response = await withdraw(token, amount, address);
      expect(response.statusCode, JSON.stringify([amount, address])).toBe(400);
      expect(response.json().message).toBe(message);
    }
    const missing = await withdrawWithoutAddress(token, 50);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields.walletAddress).toBe(messages.wallet.walletAddressRequired);
    expect(await memberBalance(ctx.database.db, user.id, 'member_wallet')).toBe(3_000);
    expect((await call('GET', '/transactions', token)).json()).toEqual([]);
  });

  it('needs approved KYC to withdraw, and a session to do anything', async () => {
    const user = await createUser(ctx);
    const token = await loginAs(ctx, user.email);
    const response = await withdraw(token, 30);
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe(messages.wallet.kycRequired);
    expect((await withdraw('', 30)).statusCode).toBe(401);
    expect((await call('GET', '/transactions')).statusCode).toBe(401);
  });

  it('lets an admin complete or fail a pending withdrawal once; failing returns the money', async () => {
    const { user, token } = await fundedMember(10_000);
    const first = (await withdraw(token, 30)).json().transaction;
    const second = (await withdraw(token, 40)).json().transaction;
    expect(await memberBalance(ctx.database.db, user.id, 'member_wallet')).toBe(3_000);

    const completed = await call('PATCH', `/transactions/${first._id}/status`, admin.token, { status: 'completed', txHash: txHashFor('BTC') });
    expect(completed.statusCode).toBe(200);
    expect(completed.json()).toMatchObject({ status: 'completed', txHash: txHashFor('BTC'), stage: 'completed', fee: 1, receiveAmount: 29 });

    const failed = await call('POST', `/admin/transactions/withdrawal/${second._id}`, admin.token, { status: 'failed' });
    expect(failed.statusCode).toBe(200);
    expect(failed.json().status).toBe('failed');
    expect(await memberBalance(ctx.database.db, user.id, 'member_wallet')).toBe(7_000);

    const again = await call('PATCH', `/transactions/${second._id}/status`, admin.token, { status: 'completed', txHash: txHashFor('BTC') });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(messages.wallet.withdrawalNotPending);
    expect(await memberBalance(ctx.database.db, user.id, 'member_wallet')).toBe(7_000);

    const mail = await ctx.deliverMail();
    expect(mail.filter((m) => m.to === user.email).map((m) => m.subject)).toEqual([
      'A withdrawal was requested from your account | Terrafund',
      'A withdrawal was requested from your account | Terrafund',
      expect.stringMatching(/withdrawal was sent/),
      expect.stringMatching(/could not be completed/),
    ]);
    const detail = (await call('GET', `/admin/users/${user.id}`, admin.token)).json();
    expect(detail.transactions).toHaveLength(2);
    expect(detail.auditLog.map((a: { action: string }) => a.action).sort()).toEqual(['withdrawal.completed', 'withdrawal.failed']);
    expect(await checkLedger(ctx.database.db)).toEqual([]);
  });

  it('keeps decisions for admins, and bad decisions out', async () => {
    const { token } = await fundedMember(5_000);
    const tx = (await withdraw(token, 30)).json().transaction;
    expect((await call('PATCH', `/transactions/${tx._id}/status`, token, { status: 'completed' })).statusCode).toBe(403);
    expect((await call('PATCH', `/transactions/${tx._id}/status`, undefined, { status: 'completed' })).statusCode).toBe(401);
    expect((await call('PATCH', `/transactions/${tx._id}/status`, admin.token, { status: 'pending' })).statusCode).toBe(400);
    expect((await call('PATCH', `/transactions/not-a-uuid/status`, admin.token, { status: 'failed' })).statusCode).toBe(404);
    const other = await fundedMember(0);
    expect((await call('GET', `/transactions/${tx._id}`, other.token)).statusCode).toBe(404);
    expect((await call('GET', `/transactions/${tx._id}`, token)).statusCode).toBe(200);
  });

  it('lets exactly one of 50 simultaneous withdrawals of the whole balance through', async () => {
    const { user, token } = await fundedMember(10_000);
    const responses = await Promise.all(Array.from({ length: 50 }, () => withdraw(token, 100)));
    expect(responses.filter((r) => r.statusCode === 201)).toHaveLength(1);
    for (const r of responses.filter((r) => r.statusCode !== 201)) {
      expect(r.statusCode).toBe(400);
      expect(r.json().message).toBe(messages.wallet.insufficientBalance);
    }
    expect(await memberBalance(ctx.database.db, user.id, 'member_wallet')).toBe(0);
    expect((await call('GET', '/transactions', token)).json()).toHaveLength(1);
    expect((await ctx.deliverMail()).filter((m) => m.to === user.email && /withdrawal was requested/.test(m.subject))).toHaveLength(1);
    expect(await checkLedger(ctx.database.db)).toEqual([]);
  });

  it('takes exactly one decision when 25 approvals race 25 failures', async () => {
    const { user, token } = await fundedMember(10_000);
    const tx = (await withdraw(token, 100)).json().transaction;
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        call('PATCH', `/transactions/${tx._id}/status`, admin.token, { status: i % 2 === 0 ? 'completed' : 'failed', txHash: txHashFor('BTC') }),
      ),
    );
    const winners = responses.filter((r) => r.statusCode === 200);
    expect(winners).toHaveLength(1);
    expect(responses.filter((r) => r.statusCode === 409)).toHaveLength(49);
    const balance = await memberBalance(ctx.database.db, user.id, 'member_wallet');
    expect(balance).toBe(winners[0]!.json().status === 'failed' ? 10_000 : 0);
    expect(await checkLedger(ctx.database.db)).toEqual([]);
  });
});

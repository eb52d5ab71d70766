import { Secret, TOTP } from 'otpauth';
import { beforeEach, describe, expect, it } from 'vitest';
import { messages } from '@terrafund/contracts';
import { sql } from 'drizzle-orm';
import { apiCaller, createUser, loginAs, rows, testWithdrawals, uniqueEmail, useAdmin, useTestApp, type TestContext } from '../../../test/test-app';
import { ADDRESSES, bookAddress, confirmTokenFrom, fundWallet, txHashFor, withdrawalBody } from '../../../test/withdrawals';
import { memberBalance } from '../ledger';
import { checkLedger } from '../reports';
import { runPayoutJob } from './payouts.service';

/** Issue 32, the member's side and the admins' decisions, with PAYOUT_PROVIDER=manual (the test default). */

async function member(ctx: TestContext, cents: number, options: { book?: boolean } = {}) {
  const user = await createUser(ctx, { kycStatus: 'approved', kycVerified: true });
  if (cents > 0) await fundWallet(ctx, user.id, cents);
  if (options.book !== false) await bookAddress(ctx, user.id);
  return { user, token: await loginAs(ctx, user.email) };
}

describe('GET /api/config: the coins paid out', () => {
  const ctx = useTestApp({ config: { withdrawals: testWithdrawals({ assets: ['BTC', 'ETH', 'USDT-TRC20'], payoutProvider: 'sandbox' }) } });
  const call = apiCaller(() => ctx);

  it('lists WITHDRAWAL_ASSETS in order with the fee, the minimum, the daily limit and the provider', async () => {
    const config = (await call('GET', '/config')).json();
    expect(config).toMatchObject({
      withdrawalAssets: [
        { id: 'BTC', name: 'Bitcoin', network: 'Bitcoin', feeUsd: 1 },
        { id: 'ETH', name: 'Ether', network: 'Ethereum', feeUsd: 1 },
        { id: 'USDT-TRC20', name: 'Tether', network: 'Tron', feeUsd: 1 },
      ],
      payoutProvider: 'sandbox',
      withdrawalFeeUsd: 1,
      minWithdrawalUsd: 25,
      withdrawalDailyLimitUsd: 10_000,
    });
  });
});

describe('a withdrawal request (issue 32)', () => {
  const ctx = useTestApp({ config: { withdrawals: testWithdrawals({ assets: ['BTC', 'ETH', 'USDT-TRC20'] }) } });
  const admin = useAdmin(ctx);
  const call = apiCaller(() => ctx);
  const withdraw = (token: string, amount: unknown, overrides: Record<string, unknown> = {}) =>
    call('POST', '/transactions', token, withdrawalBody(amount, overrides));

  it('names the coin, its network, the fee and what the member receives', async () => {
    const { user, token } = await member(ctx, 10_000);
    const response = await withdraw(token, 40);
    expect(response.statusCode).toBe(201);
    expect(response.json().transaction).toMatchObject({
      type: 'withdrawal',
      amount: 40,
      status: 'pending',
      asset: 'BTC',
      network: 'Bitcoin',
      fee: 1,
      receiveAmount: 39,
      awaitingConfirmation: false,
      stage: 'awaiting_approval',
      payout: null,
    });
    expect(response.json().transaction.approvals).toBeUndefined();
    expect(await memberBalance(ctx.database.db, user.id, 'member_wallet')).toBe(6_000);
    const list = (await call('GET', '/transactions', token)).json();
    expect(list[0]).toMatchObject({ asset: 'BTC', stage: 'awaiting_approval', fee: 1 });
  });

  it('gives every withdrawal of a list its own fields, in the history and in the admin lists alike', async () => {
    const { token } = await member(ctx, 10_000);
    const btc = (await withdraw(token, 30)).json().transaction;
    const eth = (await withdraw(token, 40, { asset: 'ETH', walletAddress: ADDRESSES.ETH })).json().transaction;
    const expected = {
      [btc._id]: { asset: 'BTC', network: 'Bitcoin', receiveAmount: 29 },
      [eth._id]: { asset: 'ETH', network: 'Ethereum', receiveAmount: 39 },
    };
    const history = (await call('GET', '/transactions', token)).json() as { _id: string }[];
    const recent = (await call('GET', '/admin/dashboard/transactions', admin.token)).json() as { _id: string }[];
    const adminList = (await call('GET', '/admin/transactions', admin.token)).json() as { _id: string }[];
    for (const [name, list] of Object.entries({ history, recent, adminList })) {
      for (const [id, fields] of Object.entries(expected)) {
        expect(list.find((t) => t._id === id), `${name} ${fields.asset}`).toMatchObject(fields);
      }
    }
  });

  it('refuses a coin outside the catalogue or WITHDRAWAL_ASSETS on `asset`, and an address of the wrong shape on `walletAddress`', async () => {
    const { user, token } = await member(ctx, 10_000);
    for (const asset of [undefined, 'DOGE', 'btc', 42, 'LTC']) {
      const response = await withdraw(token, 30, { asset, walletAddress: ADDRESSES.LTC });
      expect(response.statusCode, String(asset)).toBe(400);
      expect(response.json().fields.asset).toBe(messages.withdrawals.assetInvalid);
    }
    const cases: [string, string, string][] = [
      ['BTC', 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7', 'Bitcoin'],
      ['BTC', ADDRESSES['USDT-TRC20'], 'Bitcoin'],
      ['BTC', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdp', 'Bitcoin'],
      ['ETH', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD', 'Ether'],
      ['ETH', ADDRESSES.BTC, 'Ether'],
      ['USDT-TRC20', ADDRESSES.ETH, 'Tether'],
      ['USDT-TRC20', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u', 'Tether'],
    ];
    for (const [asset, walletAddress, name] of cases) {
      const response = await withdraw(token, 30, { asset, walletAddress });
      expect(response.statusCode, `${asset} ${walletAddress}`).toBe(400);
      expect(response.json().fields).toEqual({ walletAddress: `Please enter a valid ${name} address` });
    }
    expect(await memberBalance(ctx.database.db, user.id, 'member_wallet')).toBe(10_000);
  });

  it('asks the password again on an account without 2FA, counted with sign-in failures: 429 after five wrong', async () => {
    const { user, token } = await member(ctx, 10_000);
    const missing = await withdraw(token, 30, { password: undefined });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields).toEqual({ password: messages.stepUp.passwordIncorrect });
    for (let i = 0; i < 4; i += 1) {
      const wrong = await withdraw(token, 30, { password: 'not the password' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().fields.password).toBe('Incorrect password');
    }
    const blocked = await withdraw(token, 30);
    expect(blocked.statusCode).toBe(429);
    expect(await memberBalance(ctx.database.db, user.id, 'member_wallet')).toBe(10_000);
  });

  it('asks a current 6-digit code on an account with 2FA, and takes no recovery code or password instead', async () => {
    const secret = new Secret({ size: 20 });
    const user = await createUser(ctx, {
      kycStatus: 'approved',
      kycVerified: true,
      twoFactorSecret: ctx.app.deps.secrets.sealTotpSecret(secret.base32),
      twoFactorEnabledAt: ctx.clock.now(),
    });
    await fundWallet(ctx, user.id, 10_000);
    await bookAddress(ctx, user.id);
    // Signing in with 2FA: the second step, as a member does.
    const first = await call('POST', '/users/login', undefined, { email: user.email, password: user.password, rememberMe: true });
    const code = () => new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret }).generate({ timestamp: ctx.clock.now().getTime() });
    const second = await call('POST', '/users/login/2fa', undefined, { challenge: first.json().challenge, code: code() });
    const token = second.json().token as string;
    expect(token).toBeTruthy();

    const withPassword = await withdraw(token, 30);
    expect(withPassword.statusCode).toBe(400);
    expect(withPassword.json().fields).toEqual({ code: messages.stepUp.codeInvalid });
    const recovery = await withdraw(token, 30, { password: undefined, code: 'abcd-efgh-ijkl' });
    expect(recovery.statusCode).toBe(400);
    expect(recovery.json().fields.code).toBe('Invalid code');
    const ok = await withdraw(token, 30, { password: undefined, code: code() });
    expect(ok.statusCode).toBe(201);
  });

  it('a first withdrawal to an address waits for the mailed link; confirmed, the address joins the book', async () => {
    const { user, token } = await member(ctx, 10_000, { book: false });
    await ctx.deliverMail();
    const response = await withdraw(token, 30, { asset: 'ETH', walletAddress: ADDRESSES.ETH });
    expect(response.statusCode).toBe(201);
    const transaction = response.json().transaction;
    expect(transaction).toMatchObject({ status: 'pending', awaitingConfirmation: true, stage: 'awaiting_confirmation', asset: 'ETH', network: 'Ethereum' });
    const mail = (await ctx.deliverMail()).filter((m) => m.to === user.email);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.text).toContain('https://app.terrafund.test/wallet/withdrawals/confirm?token=');
    const token1 = confirmTokenFrom(mail, user.email);

    const early = await call('PATCH', `/transactions/${transaction._id}/status`, admin.token, { status: 'completed', txHash: txHashFor('ETH') });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(messages.withdrawals.awaitingConfirmation);
    expect((await call('POST', `/admin/transactions/withdrawal/${transaction._id}`, admin.token, { status: 'failed' })).statusCode).toBe(409);

    const confirmed = await call('POST', '/withdrawals/confirm', undefined, { token: token1 });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toMatchObject({ _id: transaction._id, stage: 'awaiting_approval', awaitingConfirmation: false });
    const again = await call('POST', '/withdrawals/confirm', undefined, { token: token1 });
    expect(again.statusCode).toBe(400);
    expect(again.json().fields.token).toBe(messages.withdrawals.tokenInvalid);
    for (const bad of [{ token: 'nope' }, {}, { token: 12 }, { token: 'x'.repeat(500) }]) {
      expect((await call('POST', '/withdrawals/confirm', undefined, bad)).statusCode).toBe(400);
    }

    const book = (await call('GET', '/users/withdrawal-addresses', token)).json();
    expect(book).toEqual([{ id: expect.any(String), asset: 'ETH', address: ADDRESSES.ETH, confirmedAt: expect.any(String), lastUsedAt: expect.any(String) }]);
    const detail = (await call('GET', `/transactions/${transaction._id}`, token)).json();
    expect(detail.timeline.map((s: { status: string }) => s.status)).toEqual(['requested', 'confirmed']);

    // The next one to the booked address needs no mail.
    await ctx.deliverMail();
    const later = (await withdraw(token, 30, { asset: 'ETH', walletAddress: ADDRESSES.ETH })).json().transaction;
    expect(later).toMatchObject({ awaitingConfirmation: false, stage: 'awaiting_approval' });
    expect((await ctx.deliverMail()).filter((m) => /withdrawals\/confirm/.test(m.text))).toHaveLength(0);
    const audit = await rows<{ action: string }>(ctx, sql`select action from audit_log where target_id = ${user.id} order by created_at`);
    expect(audit.map((a) => a.action)).toContain('withdrawal.confirmed');

    // Removed from the book, the address needs the mail again; someone else's entry is not found.
    const other = await member(ctx, 0);
    expect((await call('DELETE', `/users/withdrawal-addresses/${book[0].id}`, other.token)).statusCode).toBe(404);
    expect((await call('DELETE', `/users/withdrawal-addresses/${book[0].id}`, token)).statusCode).toBe(204);
    expect((await call('DELETE', `/users/withdrawal-addresses/${book[0].id}`, token)).statusCode).toBe(404);
    expect((await call('DELETE', '/users/withdrawal-addresses/not-an-id', token)).statusCode).toBe(404);
    expect((await call('GET', '/users/withdrawal-addresses', token)).json()).toEqual([]);
    expect((await withdraw(token, 30, { asset: 'ETH', walletAddress: ADDRESSES.ETH })).json().transaction.stage).toBe('awaiting_confirmation');
    expect(await checkLedger(ctx.database.db)).toEqual([]);
  });

  it('the owner cancels a pending withdrawal: failed, cancelled on the timeline, the amount back at once', async () => {
    const { user, token } = await member(ctx, 10_000);
    const tx = (await withdraw(token, 30)).json().transaction;
    const other = await member(ctx, 0);
    expect((await call('POST', `/transactions/${tx._id}/cancel`, other.token)).statusCode).toBe(404);
    expect((await call('POST', `/transactions/${tx._id}/cancel`)).statusCode).toBe(401);
    expect((await call('POST', '/transactions/not-an-id/cancel', token)).statusCode).toBe(404);
    const cancelled = await call('POST', `/transactions/${tx._id}/cancel`, token);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ _id: tx._id, status: 'failed', stage: 'cancelled' });
    expect(await memberBalance(ctx.database.db, user.id, 'member_wallet')).toBe(10_000);
    const detail = (await call('GET', `/transactions/${tx._id}`, token)).json();
    expect(detail.timeline.at(-1)).toMatchObject({ status: 'cancelled', reason: 'Cancelled by you' });
    expect((await call('POST', `/transactions/${tx._id}/cancel`, token)).statusCode).toBe(409);
    expect((await call('PATCH', `/transactions/${tx._id}/status`, admin.token, { status: 'failed' })).statusCode).toBe(409);

    // Completed, it can no longer be cancelled; an unconfirmed one can.
    const done = (await withdraw(token, 30)).json().transaction;
    await call('PATCH', `/transactions/${done._id}/status`, admin.token, { status: 'completed', txHash: txHashFor('BTC') });
    expect((await call('POST', `/transactions/${done._id}/cancel`, token)).statusCode).toBe(409);
    const unconfirmed = (await withdraw(token, 30, { asset: 'USDT-TRC20', walletAddress: ADDRESSES['USDT-TRC20'] })).json().transaction;
    expect((await call('POST', `/transactions/${unconfirmed._id}/cancel`, token)).json().stage).toBe('cancelled');
    const audit = await rows<{ action: string }>(ctx, sql`select action from audit_log where target_id = ${user.id}`);
    expect(audit.filter((a) => a.action === 'withdrawal.cancelled')).toHaveLength(2);
    expect(await checkLedger(ctx.database.db)).toEqual([]);
  });

  it('manual payouts: completing needs the transaction hash of the coin', async () => {
    const { token, user } = await member(ctx, 10_000);
    const tx = (await withdraw(token, 30)).json().transaction;
    for (const txHash of [undefined, '', '0xabc', txHashFor('ETH'), 'z'.repeat(64)]) {
      const response = await call('PATCH', `/transactions/${tx._id}/status`, admin.token, { status: 'completed', txHash });
      expect(response.statusCode, String(txHash)).toBe(400);
      expect(response.json().fields.txHash).toBe('Please enter a valid Bitcoin transaction hash');
    }
    const done = await call('PATCH', `/transactions/${tx._id}/status`, admin.token, { status: 'completed', txHash: txHashFor('BTC') });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ status: 'completed', stage: 'completed', txHash: txHashFor('BTC'), approvals: [{ adminEmail: admin.email }] });
    const fees = await rows<{ balance: string }>(ctx, sql`select balance_cents::text as balance from ledger_accounts where code = 'platform:withdrawal_fees'`);
    expect(Number(fees[0]!.balance)).toBeGreaterThanOrEqual(100);
    const detail = (await call('GET', `/transactions/${tx._id}`, token)).json();
    expect(detail.timeline.map((s: { status: string }) => s.status)).toEqual(['requested', 'approved', 'completed']);
    expect(detail.timeline.at(-1).txHash).toBe(txHashFor('BTC'));
    expect(detail.approvals).toBeUndefined();
    expect(user.id).toBeTruthy();
    expect(await checkLedger(ctx.database.db)).toEqual([]);
  });
});

describe('withdrawals over time: the daily limit and the confirmation link (issue 32)', () => {
  const ctx = useTestApp({ config: { withdrawals: testWithdrawals({ dailyLimitCents: 20_000 }) } });
  const call = apiCaller(() => ctx);
  const withdraw = (token: string, amount: unknown, overrides: Record<string, unknown> = {}) =>
    call('POST', '/transactions', token, withdrawalBody(amount, overrides));
  const admin = { token: '' };
  beforeEach(async () => {
    const user = await createUser(ctx, { role: 'admin', email: uniqueEmail('admin') });
    admin.token = await loginAs(ctx, user.email);
  });

  it('keeps pending and completed withdrawals of the last 24 hours within WITHDRAWAL_DAILY_LIMIT_USD', async () => {
    const { token } = await member(ctx, 100_000);
    expect((await withdraw(token, 120)).statusCode).toBe(201);
    const failedOne = (await withdraw(token, 50)).json().transaction;
    await call('PATCH', `/transactions/${failedOne._id}/status`, admin.token, { status: 'failed' });
    const over = await withdraw(token, 80.01);
    expect(over.statusCode).toBe(400);
    expect(over.json().fields).toEqual({ amount: 'Daily withdrawal limit reached' });
    expect((await withdraw(token, 80)).statusCode).toBe(201);
    ctx.clock.advance(24 * 3600_000 + 1000);
    expect((await withdraw(token, 200)).statusCode).toBe(201);
  });

  it('an expired link fails the withdrawal and returns the amount; the job expires forgotten ones too', async () => {
    const { user, token } = await member(ctx, 10_000, { book: false });
    const first = (await withdraw(token, 30)).json().transaction;
    const link = confirmTokenFrom(await ctx.deliverMail(), user.email);
    const second = (await withdraw(token, 40)).json().transaction;
    expect(await memberBalance(ctx.database.db, user.id, 'member_wallet')).toBe(3_000);
    ctx.clock.advance(30 * 60_000 + 1000);

    const expired = await call('POST', '/withdrawals/confirm', undefined, { token: link });
    expect(expired.statusCode).toBe(400);
    expect(expired.json().fields.token).toBe(messages.withdrawals.tokenExpired);
    const detail = (await call('GET', `/transactions/${first._id}`, token)).json();
    expect(detail).toMatchObject({ status: 'failed', stage: 'failed' });
    expect(detail.timeline.at(-1)).toMatchObject({ status: 'failed', reason: 'The confirmation link expired' });
    expect((await call('POST', '/withdrawals/confirm', undefined, { token: link })).statusCode).toBe(400);

    expect((await runPayoutJob(ctx.app.deps)).expired).toBe(1);
    expect((await call('GET', `/transactions/${second._id}`, token)).json()).toMatchObject({ status: 'failed', stage: 'failed' });
    expect(await memberBalance(ctx.database.db, user.id, 'member_wallet')).toBe(10_000);
    const mail = (await ctx.deliverMail()).filter((m) => m.to === user.email);
    expect(mail.filter((m) => /could not be completed/.test(m.subject))).toHaveLength(2);
    expect(await checkLedger(ctx.database.db)).toEqual([]);
  });
});

describe('two admins above WITHDRAWAL_DUAL_APPROVAL_USD (issue 32)', () => {
  const ctx = useTestApp({ config: { withdrawals: testWithdrawals({ dualApprovalCents: 500_000 }) } });
  const first = useAdmin(ctx);
  const second = useAdmin(ctx);
  const call = apiCaller(() => ctx);

  it('the first approval answers 202 and sends nothing, the same admin again is 409, a second admin completes it', async () => {
    const { user, token } = await member(ctx, 1_000_000);
    const tx = (await call('POST', '/transactions', token, withdrawalBody(5_000))).json().transaction;
    const one = await call('PATCH', `/transactions/${tx._id}/status`, first.token, { status: 'completed', txHash: txHashFor('BTC') });
    expect(one.statusCode).toBe(202);
    ctx.clock.advance(1000);
    const listed = (await call('GET', `/admin/transactions?search=${tx._id}`, first.token)).json();
    expect(listed[0]).toMatchObject({ _id: tx._id, asset: 'BTC', network: 'Bitcoin', stage: 'awaiting_approval', approvalsCount: 1 });
    expect(one.json()).toMatchObject({ status: 'pending', stage: 'awaiting_approval', approvals: [{ adminEmail: first.email, at: expect.any(String) }] });
    const twice = await call('POST', `/admin/transactions/withdrawal/${tx._id}`, first.token, { status: 'completed', txHash: txHashFor('BTC') });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(messages.withdrawals.alreadyApproved);
    const two = await call('POST', `/admin/transactions/withdrawal/${tx._id}`, second.token, { status: 'completed', txHash: txHashFor('BTC') });
    expect(two.statusCode).toBe(200);
    expect(two.json()).toMatchObject({ status: 'completed', approvals: [{ adminEmail: first.email }, { adminEmail: second.email }] });
    const detail = (await call('GET', `/admin/transactions/${tx._id}`, first.token)).json();
    expect(detail.timeline.filter((s: { status: string }) => s.status === 'approved')).toHaveLength(2);
    expect(detail).toMatchObject({
      asset: 'BTC',
      network: 'Bitcoin',
      member: { email: user.email },
      explorer: { address: `https://mempool.space/address/${ADDRESSES.BTC}`, transaction: `https://mempool.space/tx/${txHashFor('BTC')}` },
    });
    const audit = await rows<{ action: string }>(ctx, sql`select action from audit_log where target_id = ${user.id} order by created_at`);
    expect(audit.map((a) => a.action)).toEqual(['withdrawal.approved', 'withdrawal.completed']);
  });

  it('a failed decision by any admin refuses it at once, even after a first approval', async () => {
    const { user, token } = await member(ctx, 1_000_000);
    const tx = (await call('POST', '/transactions', token, withdrawalBody(6_000))).json().transaction;
    expect((await call('PATCH', `/transactions/${tx._id}/status`, first.token, { status: 'completed' })).statusCode).toBe(202);
    const refused = await call('PATCH', `/transactions/${tx._id}/status`, first.token, { status: 'failed', reason: 'Looks like account takeover' });
    expect(refused.statusCode).toBe(200);
    expect(refused.json()).toMatchObject({ status: 'failed', stage: 'failed' });
    expect(await memberBalance(ctx.database.db, user.id, 'member_wallet')).toBe(1_000_000);
    const timeline = (await call('GET', `/transactions/${tx._id}`, token)).json().timeline;
    expect(timeline.at(-1)).toMatchObject({ status: 'failed', reason: 'Looks like account takeover' });
  });

  it('two admins approving at once: both approvals count once each, and it completes once', async () => {
    const { user, token } = await member(ctx, 1_000_000);
    const tx = (await call('POST', '/transactions', token, withdrawalBody(5_000))).json().transaction;
    const answers = await Promise.all(
      [first, second, first, second].map((a) => call('PATCH', `/transactions/${tx._id}/status`, a.token, { status: 'completed', txHash: txHashFor('BTC') })),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 202, 409, 409]);
    const approvals = await rows(ctx, sql`select * from withdrawal_approvals where transaction_id = ${tx._id}`);
    expect(approvals).toHaveLength(2);
    expect(await memberBalance(ctx.database.db, user.id, 'member_wallet')).toBe(500_000);
    expect(await checkLedger(ctx.database.db)).toEqual([]);
  });

  it('admins only, with every bad input a 4xx', async () => {
    const { token } = await member(ctx, 10_000);
    const tx = (await call('POST', '/transactions', token, withdrawalBody(30))).json().transaction;
    expect((await call('GET', `/admin/transactions/${tx._id}`, token)).statusCode).toBe(403);
    expect((await call('GET', `/admin/transactions/${tx._id}`)).statusCode).toBe(401);
    expect((await call('GET', '/admin/transactions/not-an-id', first.token)).statusCode).toBe(404);
    for (const body of [{ status: 'completed', reason: 5 }, { status: 'completed', txHash: 5 }, { status: 'failed', reason: 'x'.repeat(501) }, {}, []]) {
      expect((await call('PATCH', `/transactions/${tx._id}/status`, first.token, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
  });
});

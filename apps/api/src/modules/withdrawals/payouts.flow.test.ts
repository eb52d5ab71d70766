import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { testConfig} from '../../../test/test-app';
import { apiCaller, createTestApp, createUser, loginAs, rows, testWithdrawals, uniqueEmail, type TestContext } from '../../../test/test-app';
import { startBtcpayFake, type BtcpayFake } from '../../../test/fakes/btcpay-greenfield-fake';
import { startNowpaymentsFake, type NowpaymentsFake } from '../../../test/fakes/nowpayments-payout-fake';
import type { FakeDelivery } from '../../../test/fakes/provider-fake-server';
import { ADDRESSES, bookAddress, fundWallet, withdrawalBody } from '../../../test/withdrawals';
import { fixedClock } from '../../lib/clock';
import { memberBalance } from '../ledger';
import { checkLedger } from '../reports';
import { runPayoutJob } from './payouts.service';

/**
 * Issue 32, sent by the provider: the whole flow from approval to completion against the sandbox and against fakes
 * of BTCPay's Greenfield API and NOWPayments' payout API written from their documentation, with signed webhooks and
 * IPNs, duplicates, out-of-order deliveries, a provider down and back, and a lost answer.
 */

type Flow = { ctx: TestContext; admin: { token: string }; call: ReturnType<typeof apiCaller> };

async function setUp(config: Parameters<typeof testConfig>[0], clock = fixedClock(new Date('2026-11-02T10:00:00Z'))): Promise<Flow> {
  const ctx = await createTestApp({ config, clock });
  const admin = await createUser(ctx, { role: 'admin', email: uniqueEmail('admin') });
  return { ctx, admin: { token: await loginAs(ctx, admin.email) }, call: apiCaller(() => ctx) };
}

async function pendingWithdrawal(flow: Flow, amount: number, asset: keyof typeof ADDRESSES = 'BTC') {
  const user = await createUser(flow.ctx, { kycStatus: 'approved', kycVerified: true });
  await fundWallet(flow.ctx, user.id, 1_000_000);
  await bookAddress(flow.ctx, user.id, asset);
  const token = await loginAs(flow.ctx, user.email);
  const response = await flow.call('POST', '/transactions', token, withdrawalBody(amount, { asset, walletAddress: ADDRESSES[asset] }));
  expect(response.statusCode).toBe(201);
  return { user, token, id: response.json().transaction._id as string };
}

const approve = (flow: Flow, id: string) => flow.call('PATCH', `/transactions/${id}/status`, flow.admin.token, { status: 'completed' });
const webhook = (flow: Flow, provider: string, delivery: FakeDelivery) =>
  flow.ctx.app.inject({ method: 'POST', url: `/api/payments/webhooks/${provider}`, headers: delivery.headers, payload: delivery.body });
const detail = async (flow: Flow, id: string) => (await flow.call('GET', `/admin/transactions/${id}`, flow.admin.token)).json();

/** Where a withdrawal ends: the member's wallet holds `cents` and the ledger's invariants hold. */
async function expectWalletAndLedger(flow: Flow, userId: string, cents: number) {
  expect(await memberBalance(flow.ctx.database.db, userId, 'member_wallet')).toBe(cents);
  expect(await checkLedger(flow.ctx.database.db)).toEqual([]);
}

/** The payout failed at the provider: the withdrawal failed, its amount and fee back in the funded wallet. */
async function expectFailedAndRefunded(flow: Flow, userId: string, id: string) {
  expect(await detail(flow, id)).toMatchObject({ status: 'failed', stage: 'failed' });
  await expectWalletAndLedger(flow, userId, 1_000_000);
}

describe('the sandbox payout provider', () => {
  let flow: Flow;
  beforeAll(async () => {
    flow = await setUp({ withdrawals: testWithdrawals({ payoutProvider: 'sandbox', sandboxPayoutSeconds: 3 }) });
  });
  afterAll(() => flow.ctx.close());

  it('sends at once on approval and completes SANDBOX_PAYOUT_SECONDS later with a 64-hex hash, the fee to revenue', async () => {
    const { user, token, id } = await pendingWithdrawal(flow, 30);
    const approved = await approve(flow, id);
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'pending', stage: 'sent', payout: { provider: 'sandbox', state: 'Sending', txHash: null } });
    await runPayoutJob(flow.ctx.app.deps);
    expect((await flow.call('GET', `/transactions/${id}`, token)).json().stage).toBe('sent');
    flow.ctx.clock.advance(3_000);
    await runPayoutJob(flow.ctx.app.deps);
    const done = (await flow.call('GET', `/transactions/${id}`, token)).json();
    expect(done).toMatchObject({ status: 'completed', stage: 'completed', payout: { provider: 'sandbox', state: 'Completed' } });
    expect(done.txHash).toMatch(/^[0-9a-f]{64}$/);
    expect(done.timeline.map((s: { status: string }) => s.status)).toEqual(['requested', 'approved', 'sent', 'completed']);
    expect(done.timeline.at(-1).txHash).toBe(done.txHash);
    const fees = await rows<{ balance: string }>(flow.ctx, sql`select balance_cents::text as balance from ledger_accounts where code = 'platform:withdrawal_fees'`);
    expect(fees[0]!.balance).toBe('100');
    const mail = (await flow.ctx.deliverMail()).filter((m) => m.to === user.email);
    expect(mail.filter((m) => /withdrawal was sent/.test(m.subject))).toHaveLength(1);
    await expectWalletAndLedger(flow, user.id, 1_000_000 - 3_000);
  });

  it('a cancel racing an approval: one of them wins, and the money moves once', async () => {
    for (let i = 0; i < 5; i += 1) {
      const { user, token, id } = await pendingWithdrawal(flow, 40);
      const [cancel, decision] = await Promise.all([flow.call('POST', `/transactions/${id}/cancel`, token), approve(flow, id)]);
      const statuses = [cancel.statusCode, decision.statusCode].sort();
      expect([[200, 409], [200, 200]]).toContainEqual(statuses);
      const [row] = await rows<{ stage: string }>(flow.ctx, sql`select stage from withdrawals where transaction_id = ${id}`);
      const payouts = await rows(flow.ctx, sql`select * from sandbox_payouts where withdrawal_id = ${id}`);
      if (row!.stage === 'cancelled') {
        expect(payouts).toHaveLength(0);
        expect(await memberBalance(flow.ctx.database.db, user.id, 'member_wallet')).toBe(1_000_000);
      } else {
        expect(row!.stage).toBe('sent');
        expect(cancel.statusCode).toBe(409);
        expect(payouts).toHaveLength(1);
      }
    }
    expect(await checkLedger(flow.ctx.database.db)).toEqual([]);
  });
});

describe('BTCPay Server payouts (Greenfield pull payments)', () => {
  let flow: Flow;
  let btcpay: BtcpayFake;
  beforeAll(async () => {
    btcpay = await startBtcpayFake();
    flow = await setUp({
      withdrawals: testWithdrawals({
        assets: ['BTC', 'LTC'],
        payoutProvider: 'btcpay',
        btcpay: { url: btcpay.url, apiKey: btcpay.apiKey, storeId: btcpay.storeId, webhookSecret: btcpay.webhookSecret },
      } as Partial<ReturnType<typeof testWithdrawals>>),
    });
  });
  afterAll(async () => {
    await flow.ctx.close();
    await btcpay.close();
  });
  // BTCPay refuses a second payout to an address with one in flight: each test starts with none.
  beforeEach(() => {
    for (const payout of btcpay.payouts.values()) {
      if (payout.state !== 'Completed' && payout.state !== 'Cancelled') btcpay.complete(payout.id);
    }
  });

  it('creates a USD pull payment of what the member receives and its approved payout, then follows the webhooks to Completed', async () => {
    const { user, token, id } = await pendingWithdrawal(flow, 30);
    const approved = await approve(flow, id);
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ stage: 'sent', payout: { provider: 'btcpay' } });
    const [payout, ...others] = btcpay.payoutsFor(id);
    expect(others).toEqual([]);
    const pull = btcpay.pullPayments.get(payout!.pullPaymentId!)!;
    expect(pull).toMatchObject({ currency: 'USD', payoutMethods: ['BTC-CHAIN'], autoApproveClaims: false });
    expect(Number(pull.amount)).toBe(29);
    expect(payout).toMatchObject({ destination: ADDRESSES.BTC, payoutMethodId: 'BTC-CHAIN', metadata: { withdrawalId: id } });
    expect(Number(payout!.originalAmount)).toBe(29);
    expect(approved.json().payout.id).toBe(payout!.id);

    // A bad signature is refused; a webhook of another store event changes nothing.
    const forged = btcpay.webhook(payout!.id, 'PayoutUpdated');
    expect((await webhook(flow, 'btcpay', { ...forged, headers: { ...forged.headers, 'btcpay-sig': `sha256=${'0'.repeat(64)}` } })).statusCode).toBe(403);

    btcpay.process(payout!.id);
    expect((await webhook(flow, 'btcpay', btcpay.webhook(payout!.id, 'PayoutUpdated'))).statusCode).toBe(200);
    expect((await flow.call('GET', `/transactions/${id}`, token)).json()).toMatchObject({ stage: 'sent', payout: { state: 'InProgress' } });

    btcpay.complete(payout!.id);
    const completed = btcpay.webhook(payout!.id, 'PayoutUpdated');
    expect((await webhook(flow, 'btcpay', completed)).statusCode).toBe(200);
    // The same event again, a redelivery, and an older event arriving late: nothing changes.
    expect((await webhook(flow, 'btcpay', completed)).statusCode).toBe(200);
    expect((await webhook(flow, 'btcpay', btcpay.redelivery(completed))).statusCode).toBe(200);
    expect((await webhook(flow, 'btcpay', btcpay.webhook(payout!.id, 'PayoutCreated', { payoutState: 'AwaitingPayment' }))).statusCode).toBe(200);

    const done = (await flow.call('GET', `/transactions/${id}`, token)).json();
    expect(done).toMatchObject({ status: 'completed', stage: 'completed', txHash: payout!.paymentProof!.id, payout: { provider: 'btcpay', state: 'Completed' } });
    expect(done.payout.cryptoAmount).toBeTruthy();
    const mail = (await flow.ctx.deliverMail()).filter((m) => m.to === user.email && /withdrawal was sent/.test(m.subject));
    expect(mail).toHaveLength(1);
    await expectWalletAndLedger(flow, user.id, 1_000_000 - 3_000);
  });

  it('a payout cancelled at BTCPay fails the withdrawal and returns the amount and fee', async () => {
    const { user, id } = await pendingWithdrawal(flow, 50, 'LTC');
    await approve(flow, id);
    const [payout] = btcpay.payoutsFor(id);
    expect(btcpay.pullPayments.get(payout!.pullPaymentId!)!.payoutMethods).toEqual(['LTC-CHAIN']);
    btcpay.cancel(payout!.id);
    await webhook(flow, 'btcpay', btcpay.webhook(payout!.id, 'PayoutUpdated'));
    await expectFailedAndRefunded(flow, user.id, id);
  });

  it('without webhooks, the job reads the payout every minute while it is in flight', async () => {
    const { id } = await pendingWithdrawal(flow, 30);
    await approve(flow, id);
    const [payout] = btcpay.payoutsFor(id);
    btcpay.complete(payout!.id);
    await runPayoutJob(flow.ctx.app.deps);
    expect((await detail(flow, id)).stage).toBe('sent');
    flow.ctx.clock.advance(60_000);
    await runPayoutJob(flow.ctx.app.deps);
    expect(await detail(flow, id)).toMatchObject({ stage: 'completed', txHash: payout!.paymentProof!.id });
  });

  it('provider down: the withdrawal waits for the provider and is retried with backoff, then sent once', async () => {
    const { id } = await pendingWithdrawal(flow, 30);
    btcpay.fail({ method: 'POST', path: /\/pull-payments$/ }, { kind: 'status', status: 503, json: { code: 'unavailable', message: 'down' } }, 2);
    const approved = await approve(flow, id);
    expect(approved.statusCode).toBe(200);
    expect(approved.json().stage).toBe('waiting_for_provider');
    const waiting = await detail(flow, id);
    expect(waiting).toMatchObject({ stage: 'waiting_for_provider', lastError: expect.any(String) });
    await runPayoutJob(flow.ctx.app.deps);
    expect((await detail(flow, id)).stage).toBe('waiting_for_provider');
    flow.ctx.clock.advance(60_000);
    await runPayoutJob(flow.ctx.app.deps);
    // Second failure: the next try is two minutes later.
    expect((await detail(flow, id)).stage).toBe('waiting_for_provider');
    flow.ctx.clock.advance(60_000);
    await runPayoutJob(flow.ctx.app.deps);
    expect((await detail(flow, id)).stage).toBe('waiting_for_provider');
    flow.ctx.clock.advance(60_000);
    await runPayoutJob(flow.ctx.app.deps);
    expect((await detail(flow, id)).stage).toBe('sent');
    expect(btcpay.payoutsFor(id)).toHaveLength(1);
  });

  it('a lost answer: the retry finds the payout at BTCPay by the withdrawal id and makes no second one', async () => {
    const { token, id } = await pendingWithdrawal(flow, 30);
    btcpay.fail({ method: 'POST', path: /\/payouts$/ }, { kind: 'lose-answer' });
    expect((await approve(flow, id)).json().stage).toBe('waiting_for_provider');
    expect(btcpay.payoutsFor(id)).toHaveLength(1);
    // The member cannot cancel a withdrawal whose payout may exist: the provider is asked first.
    expect((await flow.call('POST', `/transactions/${id}/cancel`, token)).statusCode).toBe(409);
    expect((await detail(flow, id)).stage).toBe('sent');
    flow.ctx.clock.advance(120_000);
    await runPayoutJob(flow.ctx.app.deps);
    expect(btcpay.payoutsFor(id)).toHaveLength(1);
    expect(await checkLedger(flow.ctx.database.db)).toEqual([]);
  });

  it('two admins at once above the threshold, and the job besides: exactly one payout', async () => {
    const { id } = await pendingWithdrawal(flow, 5_000);
    const second = await createUser(flow.ctx, { role: 'admin', email: uniqueEmail('admin') });
    const secondToken = await loginAs(flow.ctx, second.email);
    const answers = await Promise.all([
      approve(flow, id),
      flow.call('POST', `/admin/transactions/withdrawal/${id}`, secondToken, { status: 'completed' }),
      runPayoutJob(flow.ctx.app.deps).then(() => ({ statusCode: 0 })),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([0, 200, 202]);
    await runPayoutJob(flow.ctx.app.deps);
    expect(btcpay.payoutsFor(id)).toHaveLength(1);
    expect((await detail(flow, id)).approvals).toHaveLength(2);
  });
});

describe('NOWPayments payouts (mass payouts with 2FA)', () => {
  let flow: Flow;
  let np: NowpaymentsFake;
  const clock = fixedClock(new Date('2026-11-02T10:00:00Z'));
  beforeAll(async () => {
    np = await startNowpaymentsFake({ clock });
    flow = await setUp(
      {
        publicUrl: 'http://127.0.0.1:9',
        withdrawals: testWithdrawals({
          payoutProvider: 'nowpayments',
          nowpayments: {
            apiUrl: np.url,
            apiKey: np.apiKey,
            ipnSecret: np.ipnSecret,
            email: np.email,
            password: np.password,
            twoFactorSecret: np.twoFactorSecret,
          },
        } as Partial<ReturnType<typeof testWithdrawals>>),
      },
      clock,
    );
  });
  afterAll(async () => {
    await flow.ctx.close();
    await np.close();
  });

  it('creates one verified withdrawal batch per withdrawal and follows its IPNs to FINISHED', async () => {
    const { user, id } = await pendingWithdrawal(flow, 30, 'USDT-TRC20');
    const approved = await approve(flow, id);
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ stage: 'sent', payout: { provider: 'nowpayments' } });
    const [batch, ...others] = np.batchesFor(id);
    expect(others).toEqual([]);
    expect(batch!.verified).toBe(true);
    expect(batch!.withdrawals[0]).toMatchObject({
      address: ADDRESSES['USDT-TRC20'],
      currency: 'usdttrc20',
      fiat_amount: 29,
      fiat_currency: 'usd',
      unique_external_id: id,
      ipn_callback_url: 'http://127.0.0.1:9/api/payments/webhooks/nowpayments',
    });
    const create = np.requests.find((r) => r.method === 'POST' && r.path === '/v1/payout')!;
    expect(create.headers['x-api-key']).toBe(np.apiKey);
    expect(create.headers.authorization).toMatch(/^Bearer /);

    np.setStatus(batch!.id, 'SENDING');
    expect((await webhook(flow, 'nowpayments', np.ipn(batch!.id))).statusCode).toBe(200);
    expect((await detail(flow, id)).stage).toBe('sent');
    const forged = np.ipn(batch!.id, { status: 'FINISHED', hash: 'f'.repeat(64) });
    expect((await webhook(flow, 'nowpayments', { ...forged, headers: { ...forged.headers, 'x-nowpayments-sig': '0'.repeat(128) } })).statusCode).toBe(403);
    // A signed IPN that claims more than the provider says is read again at the provider: nothing happens.
    expect((await webhook(flow, 'nowpayments', forged)).statusCode).toBe(200);
    expect((await detail(flow, id)).stage).toBe('sent');

    np.finish(batch!.id, 'c'.repeat(64));
    const finished = np.ipn(batch!.id);
    expect((await webhook(flow, 'nowpayments', finished)).statusCode).toBe(200);
    expect((await webhook(flow, 'nowpayments', finished)).statusCode).toBe(200);
    expect((await webhook(flow, 'nowpayments', np.ipn(batch!.id, { status: 'SENDING' }))).statusCode).toBe(200);
    expect(await detail(flow, id)).toMatchObject({ status: 'completed', stage: 'completed', txHash: 'c'.repeat(64), payout: { state: 'FINISHED', id: batch!.id } });
    await expectWalletAndLedger(flow, user.id, 1_000_000 - 3_000);
  });

  it('FAILED at NOWPayments: failed, the amount and fee back, the member mailed', async () => {
    const { user, id } = await pendingWithdrawal(flow, 45, 'ETH');
    await approve(flow, id);
    const [batch] = np.batchesFor(id);
    np.failPayout(batch!.id);
    await webhook(flow, 'nowpayments', np.ipn(batch!.id));
    await expectFailedAndRefunded(flow, user.id, id);
    const mail = (await flow.ctx.deliverMail()).filter((m) => m.to === user.email && /could not be completed/.test(m.subject));
    expect(mail).toHaveLength(1);
  });

  it('down at approval, back a minute later: sent once; a lost create answer is found again by unique_external_id', async () => {
    const { id } = await pendingWithdrawal(flow, 30);
    np.fail({ method: 'POST', path: '/v1/payout' }, { kind: 'status', status: 503, json: { status: false, statusCode: 503, code: 'DOWN', message: 'down' } });
    expect((await approve(flow, id)).json().stage).toBe('waiting_for_provider');
    flow.ctx.clock.advance(60_000);
    np.fail({ method: 'POST', path: '/v1/payout' }, { kind: 'lose-answer' });
    await runPayoutJob(flow.ctx.app.deps);
    expect((await detail(flow, id)).stage).toBe('waiting_for_provider');
    expect(np.batchesFor(id)).toHaveLength(1);
    flow.ctx.clock.advance(120_000);
    await runPayoutJob(flow.ctx.app.deps);
    expect((await detail(flow, id)).stage).toBe('sent');
    expect(np.batchesFor(id)).toHaveLength(1);
    expect(np.batchesFor(id)[0]!.verified).toBe(true);
  });
});

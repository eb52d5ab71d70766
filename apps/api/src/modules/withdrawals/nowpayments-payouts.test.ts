import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock, type FixedClock } from '../../lib/clock';
import { startFakeServer } from '../../../test/fake-http-server';
import { startNowpaymentsFake, type NowpaymentsFake } from '../../../test/fakes/nowpayments-payout-fake';
import { createNowpaymentsPayouts, mapNowpaymentsWithdrawal } from './nowpayments-payouts';
import type { PayoutProviderError, PayoutRequest, PayoutStep } from './payout-provider';

const IPN_URL = 'https://app.terrafund.test/api/payments/webhooks/nowpayments';
const request = (overrides: Partial<PayoutRequest> = {}): PayoutRequest => ({
  withdrawalId: '7d1e0f7a-52a3-4c3b-9f1e-3c1b8d2a6e10',
  asset: 'USDT-TRC20',
  address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
  amountCents: 2_950,
  ...overrides,
});

let clock: FixedClock;
let fake: NowpaymentsFake;
let provider: ReturnType<typeof createNowpaymentsPayouts>;
const adapter = (overrides: Partial<Parameters<typeof createNowpaymentsPayouts>[0]> = {}) =>
  createNowpaymentsPayouts({
    apiUrl: `${fake.url}/`,
    apiKey: fake.apiKey,
    email: fake.email,
    password: fake.password,
    twoFactorSecret: fake.twoFactorSecret,
    ipnSecret: fake.ipnSecret,
    ipnCallbackUrl: IPN_URL,
    clock,
    ...overrides,
  });

beforeEach(async () => {
  // 10 s into a TOTP step, so "now" and "the neighbouring step" are unambiguous.
  clock = fixedClock('2026-03-02T09:00:10Z');
  fake = await startNowpaymentsFake({ clock });
  provider = adapter();
});
afterEach(() => fake.close());

const caught = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error as PayoutProviderError);
const calls = () => fake.requests.map((r) => `${r.method} ${r.path}`);

describe('creating a payout', () => {
  it('signs in, looks for the withdrawal, creates a batch of one and verifies it with the TOTP', async () => {
    const steps: PayoutStep[] = [];
    const snapshot = await provider.create(request(), { progress: async (step) => void steps.push(step) });
    const [batch] = fake.batchesFor(request().withdrawalId);
    expect(calls()).toEqual(['POST /v1/auth', 'GET /v1/payout', 'POST /v1/payout', `POST /v1/payout/${batch?.id}/verify`, `GET /v1/payout/${batch?.id}`]);

    const [auth, list, create, verify] = fake.requests;
    expect(JSON.parse(auth?.body ?? '')).toEqual({ email: fake.email, password: fake.password });
    const token = fake.requests[1]?.headers.authorization;
    expect(token).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    for (const r of fake.requests.slice(1)) {
      expect(r.headers['x-api-key']).toBe(fake.apiKey);
      expect(r.headers.authorization).toBe(token);
    }
    expect(Object.fromEntries(list?.query ?? [])).toEqual({ order_by: 'dateCreated', order: 'desc', date_from: '2026-01-31', limit: '100', page: '0' });
    expect(JSON.parse(create?.body ?? '')).toEqual({
      ipn_callback_url: IPN_URL,
      withdrawals: [
        {
          address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
          currency: 'usdttrc20',
          fiat_amount: 29.5,
          fiat_currency: 'usd',
          unique_external_id: request().withdrawalId,
          ipn_callback_url: IPN_URL,
        },
      ],
    });
    expect(JSON.parse(verify?.body ?? '')).toEqual({ verification_code: fake.totpAt() });
    expect(batch?.verified).toBe(true);
    expect(steps).toEqual([
      { step: 'batch_created', batchId: batch?.id },
      { step: 'batch_verified', batchId: batch?.id },
    ]);
    expect(snapshot).toEqual({
      provider: 'nowpayments',
      id: batch?.id,
      withdrawalId: request().withdrawalId,
      state: 'WAITING',
      outcome: 'in_flight',
      address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      cryptoAmount: '29.5',
      cryptoCurrency: 'usdttrc20',
      txHash: undefined,
      providerWithdrawalId: batch?.withdrawals[0]?.id,
    });
  });

  it('uses each coin NOWPayments code and whole dollars as numbers', async () => {
    for (const [asset, address, currency] of [
      ['BTC', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 'btc'],
      ['LTC', 'ltc1qw508d6qejxtdg4y5r3zarvary0c5xw7kgmn4n9', 'ltc'],
      ['ETH', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 'eth'],
      ['USDT-ERC20', '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359', 'usdterc20'],
    ] as const) {
      expect(provider.supports(asset)).toBe(true);
      await provider.create(request({ withdrawalId: `w-${asset}`, asset, address, amountCents: 2_900 }));
      const sent = fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payout').at(-1);
      expect(JSON.parse(sent?.body ?? '').withdrawals[0]).toMatchObject({ currency, fiat_amount: 29, address });
    }
  });

  it('resumes from a recorded batch id without reading the list', async () => {
    const { id } = await provider.create(request());
    fake.reset();
    expect(await provider.create(request(), { known: { id, verified: true } })).toMatchObject({ id, outcome: 'in_flight' });
    expect(calls()).toEqual([`GET /v1/payout/${id}`]);
    // Without the verified mark it verifies again: NOWPayments refuses (already verified), nothing else changes.
    fake.reset();
    expect(await provider.create(request(), { known: { id } })).toMatchObject({ id, outcome: 'in_flight', state: 'WAITING' });
    expect(calls()).toEqual([`GET /v1/payout/${id}`, `POST /v1/payout/${id}/verify`, `POST /v1/payout/${id}/verify`, `GET /v1/payout/${id}`]);
    expect(fake.batchesFor(request().withdrawalId)).toHaveLength(1);
  });

  it('refuses a recorded batch that belongs to another withdrawal', async () => {
    const { id } = await provider.create(request({ withdrawalId: 'other' }));
    expect(await caught(provider.create(request(), { known: { id } }))).toMatchObject({ retryable: false, code: 'not-ours' });
  });
});

describe('the JWT', () => {
  it('is reused for 4 minutes, then renewed', async () => {
    await provider.find('a');
    clock.advance(3 * 60_000);
    await provider.find('b');
    expect(calls().filter((c) => c === 'POST /v1/auth')).toHaveLength(1);
    clock.advance(90_000);
    await provider.find('c');
    expect(calls().filter((c) => c === 'POST /v1/auth')).toHaveLength(2);
  });

  it('is renewed once when NOWPayments says it expired', async () => {
    await provider.find('a');
    fake.expireTokens();
    expect(await provider.find('b')).toBeUndefined();
    expect(calls().slice(-3)).toEqual(['GET /v1/payout', 'POST /v1/auth', 'GET /v1/payout']);
  });

  it('wrong credentials: retryable (the operator fixes them), never a loop', async () => {
    const wrong = adapter({ password: 'wrong' });
    expect(await caught(wrong.create(request()))).toMatchObject({ retryable: true, status: 401, code: 'INVALID_CREDENTIALS' });
    expect(calls()).toEqual(['POST /v1/auth']);
    expect(await caught(adapter({ apiKey: 'wrong' }).find('a'))).toMatchObject({ retryable: true, status: 403, code: 'INVALID_API_KEY' });
  });
});

describe('exactly one payout per withdrawal', () => {
  it('after the answer to the batch was lost: the retry finds it by unique_external_id and verifies it', async () => {
    fake.fail({ method: 'POST', path: '/v1/payout' }, { kind: 'lose-answer' });
    expect(await caught(provider.create(request()))).toMatchObject({ retryable: true, code: 'network' });
    const [batch] = fake.batchesFor(request().withdrawalId);
    expect(batch?.verified).toBe(false);

    const snapshot = await provider.create(request());
    expect(fake.batchesFor(request().withdrawalId)).toHaveLength(1);
    expect(batch?.verified).toBe(true);
    expect(snapshot.id).toBe(batch?.id);
  });

  it('after a crash between the batch and its verification: found and verified, not made again', async () => {
    await caught(provider.create(request(), { progress: async (step) => { if (step.step === 'batch_created') throw new Error('killed'); } }));
    expect(fake.batchesFor(request().withdrawalId)[0]?.verified).toBe(false);
    await provider.create(request());
    expect(fake.batchesFor(request().withdrawalId)).toHaveLength(1);
    expect(fake.batchesFor(request().withdrawalId)[0]?.verified).toBe(true);
  });

  it('when the batch was created unverified as CREATING: verified on resume too', async () => {
    await fake.close();
    fake = await startNowpaymentsFake({ clock, createdStatus: 'CREATING' });
    provider = adapter();
    await caught(provider.create(request(), { progress: () => Promise.reject(new Error('killed')) }));
    expect(await provider.find(request().withdrawalId)).toMatchObject({ state: 'CREATING', outcome: 'in_flight' });
    expect(await provider.create(request())).toMatchObject({ state: 'WAITING' });
    expect(fake.batchesFor(request().withdrawalId)).toHaveLength(1);
  });

  it('after the answer to the verification was lost: the batch stays one, and the state tells', async () => {
    fake.fail({ method: 'POST', path: /\/verify$/ }, { kind: 'lose-answer' });
    expect(await caught(provider.create(request()))).toMatchObject({ retryable: true });
    const again = await provider.create(request());
    expect(fake.batchesFor(request().withdrawalId)).toHaveLength(1);
    expect(again).toMatchObject({ state: 'WAITING', outcome: 'in_flight' });
    fake.setStatus(again.id, 'PROCESSING');
    expect(await provider.create(request())).toMatchObject({ state: 'PROCESSING' });
  });

  it('finds a withdrawal on a later page of the list', async () => {
    await provider.create(request());
    clock.advance(60_000);
    for (let i = 0; i < 101; i += 1) await provider.create(request({ withdrawalId: `newer-${i}` }));
    fake.reset();
    const found = await provider.find(request().withdrawalId);
    expect(found?.withdrawalId).toBe(request().withdrawalId);
    expect(fake.requests.filter((r) => r.path === '/v1/payout').map((r) => r.query.get('page'))).toEqual(['0', '1']);
  }, 30_000);
});

describe('the 2FA code', () => {
  it('a code refused for clock drift is tried once more with the neighbouring step', async () => {
    await fake.close();
    // NOWPayments 25 s ahead, and we are 10 s into our step: it is already in our next step.
    fake = await startNowpaymentsFake({ clock: { now: () => new Date(clock.now().getTime() + 25_000) } });
    clock.set('2026-03-02T09:00:20Z');
    provider = adapter();
    await provider.create(request());
    const verifies = fake.requests.filter((r) => r.path.endsWith('/verify')).map((r) => JSON.parse(r.body).verification_code);
    expect(verifies).toHaveLength(2);
    expect(verifies[1]).toBe(fake.totpAt());
    expect(fake.batchesFor(request().withdrawalId)[0]?.verified).toBe(true);
  });

  it('a code refused twice leaves the batch to be rejected, never made again', async () => {
    const wrong = adapter({ twoFactorSecret: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ' });
    const snapshot = await wrong.create(request());
    expect(snapshot).toMatchObject({ outcome: 'in_flight', error: expect.stringContaining('verification refused') });
    clock.advance(61 * 60_000);
    expect(await wrong.get(snapshot.id)).toMatchObject({ state: 'REJECTED', outcome: 'failed' });
    expect(await wrong.create(request())).toMatchObject({ id: snapshot.id, outcome: 'failed' });
    expect(fake.batchesFor(request().withdrawalId)).toHaveLength(1);
  });
});

describe('errors', () => {
  it('5xx and timeouts are retryable', async () => {
    fake.fail({ method: 'POST', path: '/v1/payout' }, { kind: 'status', status: 502, text: 'Bad Gateway' });
    expect(await caught(provider.create(request()))).toMatchObject({ retryable: true, status: 502 });
    fake.fail({ method: 'GET' }, { kind: 'hang' });
    expect(await caught(adapter({ timeoutMs: 200 }).find('x'))).toMatchObject({ retryable: true, code: 'timeout' });
  });

  it('a refused payout is final, with NOWPayments code', async () => {
    fake.balances.usdttrc20 = 10;
    const error = await caught(provider.create(request()));
    expect(error).toMatchObject({ retryable: false, status: 400, code: 'BAD_CREATE_WITHDRAWAL_REQUEST' });
    expect(error?.message).not.toContain(fake.password);
    expect(fake.batches.size).toBe(0);
  });

  it('an unknown batch is a final 404', async () => {
    expect(await caught(provider.get('5999999999'))).toMatchObject({ retryable: false, status: 404, code: 'NOT_FOUND' });
  });
});

describe('states', () => {
  it('maps the batch through its statuses to completed with the hash, or failed with the error', async () => {
    const { id } = await provider.create(request());
    fake.setStatus(id, 'PROCESSING');
    expect(await provider.get(id)).toMatchObject({ state: 'PROCESSING', outcome: 'in_flight' });
    fake.setStatus(id, 'SENDING');
    expect(await provider.get(id)).toMatchObject({ state: 'SENDING', outcome: 'in_flight' });
    fake.finish(id, 'ef'.repeat(32));
    expect(await provider.get(id)).toMatchObject({ state: 'FINISHED', outcome: 'completed', txHash: 'ef'.repeat(32) });

    const other = await provider.create(request({ withdrawalId: 'w2' }));
    fake.failPayout(other.id, 'Address is not whitelisted');
    expect(await provider.get(other.id)).toMatchObject({ state: 'FAILED', outcome: 'failed', error: 'Address is not whitelisted' });
  });

  it('reads statuses in any case, and a bare list of withdrawals', () => {
    const w = { id: '1', batch_withdrawal_id: '9', status: 'finished', hash: 'ab' };
    expect(mapNowpaymentsWithdrawal('9', w)).toMatchObject({ state: 'FINISHED', outcome: 'completed', txHash: 'ab' });
    expect(mapNowpaymentsWithdrawal('9', { ...w, status: 'REJECTED', hash: null })).toMatchObject({ outcome: 'failed', error: expect.any(String) });
    expect(mapNowpaymentsWithdrawal('9', { ...w, status: 'failed', error: { reason: 'x' } })).toMatchObject({ outcome: 'failed', error: '{"reason":"x"}' });
  });
});

describe('payout IPNs', () => {
  const sign = (payload: unknown) => fake.sign(payload);

  it('recognises a signed payout IPN, whatever the key order', async () => {
    const { id } = await provider.create(request());
    fake.finish(id);
    const ipn = fake.ipn(id);
    const withdrawalId = fake.batches.get(id)?.withdrawals[0]?.id;
    expect(provider.verifyNotification(ipn.body, ipn.headers)).toEqual({
      kind: 'payout',
      payoutRef: id,
      deliveryKey: `${withdrawalId}:FINISHED`,
      type: 'FINISHED',
      state: 'FINISHED',
      known: true,
    });
    const reordered = Buffer.from(JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(ipn.body.toString())).reverse()), null, 2));
    expect(provider.verifyNotification(reordered, ipn.headers)).toMatchObject({ kind: 'payout', payoutRef: id });
    const lower = fake.ipn(id, { status: 'finished' });
    expect(provider.verifyNotification(lower.body, lower.headers)).toMatchObject({ state: 'FINISHED' });
    const odd = fake.ipn(id, { status: 'ON_HOLD' });
    expect(provider.verifyNotification(odd.body, odd.headers)).toMatchObject({ kind: 'payout', known: false });
  });

  it('refuses a changed value, a missing or foreign signature', async () => {
    const { id } = await provider.create(request());
    const ipn = fake.ipn(id);
    const changed = Buffer.from(ipn.body.toString().replace('"WAITING"', '"FINISHED"'));
    expect(provider.verifyNotification(changed, ipn.headers)).toEqual({ kind: 'invalid' });
    expect(provider.verifyNotification(ipn.body, {})).toEqual({ kind: 'invalid' });
    expect(adapter({ ipnSecret: 'other' }).verifyNotification(ipn.body, ipn.headers)).toEqual({ kind: 'invalid' });
    expect(provider.verifyNotification(Buffer.from('not json'), ipn.headers)).toEqual({ kind: 'invalid' });
  });

  it('leaves payment IPNs to the deposit code', () => {
    const payment = { payment_id: 5_077_125_051, payment_status: 'finished', invoice_id: 4_522_625_843, order_id: 'tx-1', price_amount: 700 };
    expect(provider.verifyNotification(Buffer.from(JSON.stringify(payment)), { 'x-nowpayments-sig': sign(payment) })).toEqual({ kind: 'other' });
    const independent = createHmac('sha512', fake.ipnSecret).update('{"a":{"c":3,"d":4},"b":2}').digest('hex');
    expect(sign({ b: 2, a: { d: 4, c: 3 } })).toBe(independent);
  });

  describe('sent by the fake as the batch moves', () => {
    let receiver: Awaited<ReturnType<typeof startFakeServer>>;
    beforeAll(async () => {
      receiver = await startFakeServer(() => ({ status: 200, json: {} }));
    });
    afterAll(() => receiver.close());

    it('arrive at ipn_callback_url, signed', async () => {
      receiver.requests.length = 0;
      const local = adapter({ ipnCallbackUrl: `${receiver.url}/api/payments/webhooks/nowpayments` });
      const { id } = await local.create(request());
      fake.setStatus(id, 'SENDING');
      fake.finish(id);
      await fake.settled();
      expect(receiver.requests.map((r) => r.path)).toEqual(['/api/payments/webhooks/nowpayments', '/api/payments/webhooks/nowpayments']);
      const states = receiver.requests.map((r) => local.verifyNotification(Buffer.from(r.body), r.headers)).map((n) => (n.kind === 'payout' ? n.state : n.kind));
      expect(states).toEqual(['SENDING', 'FINISHED']);
    });
  });
});

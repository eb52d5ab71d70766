import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeServer } from '../../../test/fake-http-server';
import { startBtcpayFake, type BtcpayFake } from '../../../test/fakes/btcpay-greenfield-fake';
import { createBtcpayPayouts, mapBtcpayPayout } from './btcpay-payouts';
import { PayoutProviderError, type PayoutRequest, type PayoutStep } from './payout-provider';

const ADDRESS = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const request = (overrides: Partial<PayoutRequest> = {}): PayoutRequest => ({
  withdrawalId: '0b6f4c7e-2d7e-4f0e-9a51-6f1c2f0e9a01',
  asset: 'BTC',
  address: ADDRESS,
  amountCents: 2_900,
  ...overrides,
});

let fake: BtcpayFake;
let provider: ReturnType<typeof createBtcpayPayouts>;
const adapter = (overrides: Partial<Parameters<typeof createBtcpayPayouts>[0]> = {}) =>
  createBtcpayPayouts({ url: `${fake.url}/`, apiKey: fake.apiKey, storeId: fake.storeId, webhookSecret: fake.webhookSecret, ...overrides });

beforeEach(async () => {
  fake = await startBtcpayFake();
  provider = adapter();
});
afterEach(() => fake.close());

const caught = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error as PayoutProviderError);
const store = () => `/api/v1/stores/${fake.storeId}`;

describe('creating a payout', () => {
  it('looks for the withdrawal, then creates a USD pull payment and one approved payout in it', async () => {
    const steps: PayoutStep[] = [];
    const snapshot = await provider.create(request(), {
      progress: async (step) => {
        steps.push(step);
        expect(fake.requests.map((r) => `${r.method} ${r.path}`)).not.toContain(`POST ${store()}/payouts`);
      },
    });

    expect(fake.requests.map((r) => `${r.method} ${r.path}?${r.query}`)).toEqual([
      `GET ${store()}/payouts?includeCancelled=true`,
      `GET ${store()}/pull-payments?includeArchived=true`,
      `POST ${store()}/pull-payments?`,
      `POST ${store()}/payouts?`,
    ]);
    for (const r of fake.requests) expect(r.headers.authorization).toBe(`token ${fake.apiKey}`);
    const [pullPayment] = [...fake.pullPayments.values()];
    expect(JSON.parse(fake.requests[2]?.body ?? '')).toEqual({
      name: 'Withdrawal 0b6f4c7e-2d7e-4f0e-9a51-6f1c2f0e9a01',
      description: 'Terrafund withdrawal 0b6f4c7e-2d7e-4f0e-9a51-6f1c2f0e9a01',
      amount: '29.00',
      currency: 'USD',
      payoutMethods: ['BTC-CHAIN'],
      autoApproveClaims: false,
    });
    expect(JSON.parse(fake.requests[3]?.body ?? '')).toEqual({
      pullPaymentId: pullPayment?.id,
      destination: ADDRESS,
      amount: '29.00',
      payoutMethodId: 'BTC-CHAIN',
      approved: true,
      metadata: { withdrawalId: '0b6f4c7e-2d7e-4f0e-9a51-6f1c2f0e9a01' },
    });
    expect(steps).toEqual([{ step: 'pull_payment_created', pullPaymentId: pullPayment?.id }]);
    const [payout] = fake.payoutsFor(request().withdrawalId);
    expect(snapshot).toEqual({
      provider: 'btcpay',
      id: payout?.id,
      withdrawalId: request().withdrawalId,
      state: 'AwaitingPayment',
      outcome: 'in_flight',
      address: ADDRESS,
      cryptoAmount: '0.00029000',
      cryptoCurrency: 'BTC',
      txHash: undefined,
      pullPaymentId: pullPayment?.id,
    });
  });

  it('sends Litecoin with LTC-CHAIN and cents exactly', async () => {
    const ltc = await provider.create(request({ asset: 'LTC', address: 'ltc1qw508d6qejxtdg4y5r3zarvary0c5xw7kgmn4n9', amountCents: 2_950 }));
    expect(JSON.parse(fake.requests.at(-2)?.body ?? '')).toMatchObject({ amount: '29.50', payoutMethods: ['LTC-CHAIN'] });
    expect(JSON.parse(fake.requests.at(-1)?.body ?? '')).toMatchObject({ amount: '29.50', payoutMethodId: 'LTC-CHAIN' });
    expect(ltc).toMatchObject({ cryptoCurrency: 'LTC', cryptoAmount: '0.29500000' });
  });

  it('sends only BTC and LTC', async () => {
    expect(provider.supports('BTC') && provider.supports('LTC')).toBe(true);
    for (const asset of ['ETH', 'USDT-ERC20', 'USDT-TRC20'] as const) expect(provider.supports(asset)).toBe(false);
    const error = await caught(provider.create(request({ asset: 'ETH', address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' })));
    expect(error).toMatchObject({ retryable: false, code: 'unsupported-asset' });
    expect(fake.requests).toHaveLength(0);
  });

  it('answers the existing payout instead of making a second one', async () => {
    const first = await provider.create(request());
    fake.reset();
    const again = await provider.create(request());
    expect(again).toEqual(first);
    expect(fake.requests.map((r) => r.method)).toEqual(['GET']);
    expect(fake.payoutsFor(request().withdrawalId)).toHaveLength(1);
  });

  it('uses recorded ids instead of the store-wide lists', async () => {
    const steps: PayoutStep[] = [];
    await caught(
      provider.create(request(), {
        progress: async (step) => {
          steps.push(step);
          throw new Error('crash after recording the pull payment');
        },
      }),
    );
    const pullPaymentId = steps[0]?.step === 'pull_payment_created' ? steps[0].pullPaymentId : '';
    fake.reset();
    const snapshot = await provider.create(request(), { known: { pullPaymentId } });
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /api/v1/pull-payments/${pullPaymentId}/payouts`,
      `POST ${store()}/payouts`,
    ]);
    fake.reset();
    expect(await provider.create(request(), { known: { id: snapshot.id } })).toEqual(snapshot);
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET ${store()}/payouts/${snapshot.id}`]);
  });
});

describe('exactly one payout per withdrawal', () => {
  it('after the answer to the payout was lost: the retry finds it', async () => {
    fake.fail({ method: 'POST', path: `${store()}/payouts` }, { kind: 'lose-answer' });
    const error = await caught(provider.create(request()));
    expect(error).toBeInstanceOf(PayoutProviderError);
    expect(error).toMatchObject({ retryable: true, code: 'network' });
    expect(fake.payoutsFor(request().withdrawalId)).toHaveLength(1);

    const snapshot = await provider.create(request());
    expect(fake.payoutsFor(request().withdrawalId)).toHaveLength(1);
    expect(snapshot.id).toBe(fake.payoutsFor(request().withdrawalId)[0]?.id);
  });

  it('after the answer to the pull payment was lost: the retry reuses it', async () => {
    fake.fail({ method: 'POST', path: `${store()}/pull-payments` }, { kind: 'lose-answer' });
    expect(await caught(provider.create(request()))).toMatchObject({ retryable: true });
    expect(fake.pullPayments.size).toBe(1);
    await provider.create(request());
    expect(fake.pullPayments.size).toBe(1);
    expect(fake.payoutsFor(request().withdrawalId)).toHaveLength(1);
  });

  it('after a crash between the pull payment and its payout: the pull payment is reused', async () => {
    await caught(provider.create(request(), { progress: () => Promise.reject(new Error('process killed')) }));
    expect(fake.pullPayments.size).toBe(1);
    expect(fake.payouts.size).toBe(0);
    const snapshot = await provider.create(request());
    expect(fake.pullPayments.size).toBe(1);
    expect(snapshot.pullPaymentId).toBe([...fake.pullPayments.keys()][0]);
  });

  it('with two attempts at once: BTCPay refuses the second and both answer the one payout', async () => {
    const [a, b] = await Promise.all([provider.create(request()), adapter().create(request())]);
    expect(fake.payoutsFor(request().withdrawalId)).toHaveLength(1);
    expect(a.id).toBe(b.id);
  });

  it('after a timeout: retryable, and nothing was made twice', async () => {
    const slow = adapter({ timeoutMs: 200 });
    fake.fail({ method: 'POST', path: `${store()}/payouts` }, { kind: 'delay', ms: 600 });
    expect(await caught(slow.create(request()))).toMatchObject({ retryable: true, code: 'timeout' });
    await new Promise((resolve) => setTimeout(resolve, 700));
    await slow.create(request());
    expect(fake.payoutsFor(request().withdrawalId)).toHaveLength(1);
  });
});

describe('errors', () => {
  it('5xx, 429 and an unreachable server are retryable', async () => {
    fake.fail({ method: 'GET' }, { kind: 'status', status: 503, text: 'Service Unavailable' });
    expect(await caught(provider.create(request()))).toMatchObject({ retryable: true, status: 503, code: 'http-503' });
    fake.fail({ method: 'POST' }, { kind: 'status', status: 429, json: { code: 'rate-limited', message: 'slow down' } });
    expect(await caught(provider.create(request()))).toMatchObject({ retryable: true, status: 429 });
    await fake.close();
    expect(await caught(provider.get('x'))).toMatchObject({ retryable: true, code: 'network' });
    fake = await startBtcpayFake();
  });

  it('a refused claim is final, with BTCPay code', async () => {
    await fake.close();
    fake = await startBtcpayFake({ minimumClaimUsd: 30 });
    provider = adapter();
    const error = await caught(provider.create(request()));
    expect(error).toMatchObject({ retryable: false, code: 'amount-too-low', status: 400 });
    expect(error?.message).not.toContain(fake.apiKey);
  });

  it('another withdrawal to the same address still in flight: retryable, BTCPay allows one at a time', async () => {
    await provider.create(request());
    const error = await caught(provider.create(request({ withdrawalId: 'second-withdrawal' })));
    expect(error).toMatchObject({ retryable: true, code: 'duplicate-destination' });
    fake.complete(fake.payoutsFor(request().withdrawalId)[0]!.id);
    expect((await provider.create(request({ withdrawalId: 'second-withdrawal' }))).withdrawalId).toBe('second-withdrawal');
  });

  it('a wrong key or a missing permission says so, and is for the operator to fix', async () => {
    expect(await caught(adapter({ apiKey: 'wrong' }).find('w'))).toMatchObject({ retryable: true, status: 401, code: 'unauthenticated' });
    fake.permissions.delete('btcpay.store.canviewpayouts');
    expect(await caught(provider.find('w'))).toMatchObject({ retryable: true, status: 403, code: 'missing-permission' });
    fake.permissions.clear();
    fake.permissions.add('btcpay.store.cancreatenonapprovedpullpayments').add('btcpay.store.canviewpayouts');
    const error = await caught(provider.create(request()));
    expect(error).toMatchObject({ status: 403, code: 'missing-permission' });
    expect(fake.payouts.size).toBe(0);
  });

  it('an unknown payout is a final 404', async () => {
    expect(await caught(provider.get('nope'))).toMatchObject({ retryable: false, status: 404, code: 'payout-not-found' });
  });

  it('a 2xx it cannot read is retryable: the request may have been applied', async () => {
    fake.fail({ method: 'POST', path: `${store()}/pull-payments` }, { kind: 'status', status: 200, json: { name: 'no id' } });
    expect(await caught(provider.create(request()))).toMatchObject({ retryable: true, code: 'unreadable-answer' });
  });
});

describe('states', () => {
  it('maps the payout through the processor to completed, with the transaction id', async () => {
    const { id } = await provider.create(request());
    fake.process(id, 'ab'.repeat(32));
    expect(await provider.get(id)).toMatchObject({ state: 'InProgress', outcome: 'in_flight', txHash: 'ab'.repeat(32) });
    fake.complete(id);
    expect(await provider.get(id)).toMatchObject({ state: 'Completed', outcome: 'completed', txHash: 'ab'.repeat(32) });
  });

  it('maps Cancelled to failed, and find() still answers it so nothing is paid again', async () => {
    const { id } = await provider.create(request());
    fake.cancel(id);
    expect(await provider.get(id)).toMatchObject({ state: 'Cancelled', outcome: 'failed', error: expect.any(String) });
    expect(await provider.find(request().withdrawalId)).toMatchObject({ id, outcome: 'failed' });
    expect((await provider.create(request())).id).toBe(id);
    expect(fake.payoutsFor(request().withdrawalId)).toHaveLength(1);
  });

  it('maps every documented state', () => {
    const payout = { id: 'p', state: 'AwaitingApproval', payoutMethodId: 'LTC-CHAIN' };
    expect(mapBtcpayPayout(payout)).toMatchObject({ outcome: 'in_flight', cryptoCurrency: 'LTC' });
    expect(mapBtcpayPayout({ ...payout, state: 'AwaitingPayment' }).outcome).toBe('in_flight');
    expect(mapBtcpayPayout({ ...payout, state: 'SomethingNew' }).outcome).toBe('in_flight');
    expect(mapBtcpayPayout({ ...payout, state: 'Completed', paymentProof: { proofType: 'PayoutTransactionOnChainBlob', transactionId: 'cd'.repeat(32) } })).toMatchObject({
      outcome: 'completed',
      txHash: 'cd'.repeat(32),
    });
    expect(mapBtcpayPayout({ ...payout, state: 'Completed', paymentProof: null })).toMatchObject({ outcome: 'completed', txHash: undefined });
  });

  it('find() answers nothing for a withdrawal never paid', async () => {
    await provider.create(request());
    expect(await provider.find('another-withdrawal')).toBeUndefined();
  });
});

describe('store webhooks', () => {
  it('recognises signed payout events and keys retries of one event together', async () => {
    const { id } = await provider.create(request());
    const delivery = fake.webhook(id, 'PayoutUpdated');
    const verified = provider.verifyNotification(delivery.body, delivery.headers);
    const first = JSON.parse(delivery.body.toString()) as { deliveryId: string };
    expect(verified).toEqual({ kind: 'payout', payoutRef: id, deliveryKey: first.deliveryId, type: 'PayoutUpdated', state: 'AwaitingPayment', known: true });
    const retry = fake.redelivery(delivery);
    expect(provider.verifyNotification(retry.body, retry.headers)).toMatchObject({ deliveryKey: first.deliveryId });
    for (const type of ['PayoutCreated', 'PayoutApproved']) {
      const d = fake.webhook(id, type);
      expect(provider.verifyNotification(d.body, d.headers)).toMatchObject({ kind: 'payout', type, known: true });
    }
    const unknown = fake.webhook(id, 'PayoutSomethingNew');
    expect(provider.verifyNotification(unknown.body, unknown.headers)).toMatchObject({ kind: 'payout', known: false });
  });

  it('verifies the raw bytes: a changed byte or a re-serialised body fails', async () => {
    const delivery = fake.webhook('payout-1', 'PayoutUpdated');
    const tampered = Buffer.from(delivery.body);
    tampered[tampered.indexOf('payout-1') + 7] = '2'.charCodeAt(0);
    expect(provider.verifyNotification(tampered, delivery.headers)).toEqual({ kind: 'invalid' });
    const compact = Buffer.from(JSON.stringify(JSON.parse(delivery.body.toString())));
    expect(provider.verifyNotification(compact, delivery.headers)).toEqual({ kind: 'invalid' });
    expect(provider.verifyNotification(delivery.body, {})).toEqual({ kind: 'invalid' });
    expect(provider.verifyNotification(delivery.body, { 'btcpay-sig': delivery.headers['btcpay-sig']!.replace('sha256=', '') })).toEqual({ kind: 'invalid' });
    expect(adapter({ webhookSecret: 'other' }).verifyNotification(delivery.body, delivery.headers)).toEqual({ kind: 'invalid' });
    expect(provider.verifyNotification(delivery.body, { 'BTCPay-Sig': delivery.headers['btcpay-sig'] })).toMatchObject({ kind: 'payout' });
  });

  it('leaves invoice events to the deposit code', () => {
    // The published vector (payments spec): an invoice event, correctly signed.
    const body = Buffer.from(
      '{\n  "deliveryId": "PENf2czGBzTepjzSJdt6Nz",\n  "webhookId": "6KQ4EmzqKowRgyBL65TwJg",\n  "originalDeliveryId": "PENf2czGBzTepjzSJdt6Nz",\n  "isRedelivery": false,\n  "type": "InvoiceCreated",\n  "timestamp": 1623954207,\n  "storeId": "Hf9GvFK2dHJehm9J8A6kYfbc1ruc5jEZBKEr9r7jsrLo",\n  "invoiceId": "CQZj4Qbm475EJQ5HsWeAbd"\n}',
    );
    const vector = adapter({ webhookSecret: '5TjrCfkTgfjY4rJj85bTJj' });
    const headers = { 'btcpay-sig': 'sha256=4ec27a6ca16dbc7b8c7ddfb5654b1f8dbf8c69a439e970fd2bfac6e19713f211' };
    expect(vector.verifyNotification(body, headers)).toEqual({ kind: 'other' });
    const settled = fake.webhook('x', 'InvoiceSettled', { payoutId: undefined, invoiceId: 'inv-1' });
    expect(provider.verifyNotification(settled.body, settled.headers)).toEqual({ kind: 'other' });
  });

  describe('sent by the fake as the payout moves', () => {
    let receiver: Awaited<ReturnType<typeof startFakeServer>>;
    beforeAll(async () => {
      receiver = await startFakeServer(() => ({ status: 200, json: {} }));
    });
    afterAll(() => receiver.close());

    it('arrive signed, in any order, and get() tells the truth', async () => {
      receiver.requests.length = 0;
      fake.webhookUrl = `${receiver.url}/api/payments/webhooks/btcpay`;
      const { id } = await provider.create(request());
      fake.process(id);
      fake.complete(id);
      await fake.settled();
      const events = receiver.requests.map((r) => provider.verifyNotification(Buffer.from(r.body), r.headers));
      expect(events.map((e) => (e.kind === 'payout' ? `${e.type}:${e.state}` : e.kind)).sort()).toEqual(
        ['PayoutApproved:AwaitingPayment', 'PayoutCreated:AwaitingApproval', 'PayoutUpdated:Completed', 'PayoutUpdated:InProgress'].sort(),
      );
      // Delivered late, the first event still leads to the payout as it is now.
      const stale = events.find((e) => e.kind === 'payout' && e.type === 'PayoutCreated');
      expect(stale?.kind === 'payout' && (await provider.get(stale.payoutRef)).outcome).toBe('completed');
    });
  });
});

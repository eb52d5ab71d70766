import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeServer, unusedUrl, type FakeAnswer, type ReceivedRequest } from '../../../test/fake-http-server';
import { invoiceInput } from '../../../test/invoice-input';
import { createBtcpayProvider } from './btcpay.provider';
import { ProviderHttpError } from './http';

const STORE = 'Hf9GvFK2dHJehm9J8A6kYfbc1ruc5jEZBKEr9r7jsrLo';
const API_KEY = 'btcpay-api-key-1';
const SECRET = 'webhook-secret-1';

const input = invoiceInput('btcpay', {
  returnUrl: 'https://app.terrafund.test/api/payments/return/btcpay?invoice={InvoiceId}&order={OrderId}',
});
const expected = { orderId: 'tx-0001', amountCents: 70_000 };

/** A Greenfield invoice as GET /invoices/{id} answers it. */
const invoice = (overrides: Record<string, unknown> = {}) => ({
  id: 'CQZj4Qbm475EJQ5HsWeAbd',
  storeId: STORE,
  amount: '700.00',
  currency: 'USD',
  type: 'Standard',
  checkoutLink: 'https://btcpay.test/i/CQZj4Qbm475EJQ5HsWeAbd',
  createdTime: 1_767_614_400,
  expirationTime: 1_767_616_200,
  monitoringExpiration: 1_767_619_800,
  status: 'New',
  additionalStatus: 'None',
  archived: false,
  metadata: { orderId: 'tx-0001', itemDesc: 'Terrafund startium pack' },
  ...overrides,
});

/**
 * One entry of GET /invoices/{id}/payment-methods as BTCPay 2 answers it (InvoicePaymentMethodDataModel), for a
 * 700 USD invoice at 64,000 USD/BTC.
 */
const paymentMethod = (overrides: Record<string, unknown> = {}) => ({
  paymentMethodId: 'BTC-CHAIN',
  currency: 'BTC',
  destination: 'bcrt1qxp6vqxvq9hm3s6dx0r6mj0ukd8qyz3cr0mfr0n',
  paymentLink: 'bitcoin:bcrt1qxp6vqxvq9hm3s6dx0r6mj0ukd8qyz3cr0mfr0n?amount=0.01093750',
  rate: '64000.00',
  paymentMethodPaid: '0.00000000',
  totalPaid: '0.00000000',
  due: '0.01093750',
  amount: '0.01093750',
  paymentMethodFee: '0.00000000',
  payments: [],
  activated: true,
  additionalData: { keyPath: '0/12', payjoinEnabled: false },
  ...overrides,
});
const received = (value: string) => ({ id: 'f0c5…:0', receivedDate: 1_767_615_000, value, fee: '0.00000000', status: 'Settled', destination: 'bcrt1q…' });

/** What the fake BTCPay answers, per test. */
let stored: Record<string, unknown> = invoice();
let storedMethods: unknown = [paymentMethod(), paymentMethod({ paymentMethodId: 'BTC-LN', destination: 'lnbcrt10937…' })];
let nextAnswer: FakeAnswer | undefined;

function btcpay(request: ReceivedRequest): FakeAnswer {
  if (nextAnswer) return nextAnswer;
  if (request.headers.authorization !== `token ${API_KEY}`) return { status: 401, json: { code: 'unauthenticated', message: 'Authentication is required' } };
  if (request.method === 'POST' && request.path === `/api/v1/stores/${STORE}/invoices`) {
    return { status: 200, json: invoice({ expirationTime: 1_767_616_200 }) };
  }
  const methods = /^\/api\/v1\/stores\/([^/]+)\/invoices\/([^/]+)\/payment-methods$/.exec(request.path);
  if (request.method === 'GET' && methods?.[1] === STORE && methods[2] === stored.id && storedMethods !== undefined) {
    return { status: 200, json: storedMethods };
  }
  const read = /^\/api\/v1\/stores\/([^/]+)\/invoices\/([^/]+)$/.exec(request.path);
  if (request.method === 'GET' && read?.[1] === STORE) {
    return read[2] === stored.id
      ? { status: 200, json: stored }
      : { status: 404, json: { code: 'invoice-not-found', message: 'The invoice was not found' } };
  }
  return { status: 404, text: 'Not Found' };
}

let server: Awaited<ReturnType<typeof startFakeServer>>;
let provider: ReturnType<typeof createBtcpayProvider>;

beforeAll(async () => {
  server = await startFakeServer(btcpay);
  provider = createBtcpayProvider({ url: `${server.url}/`, apiKey: API_KEY, storeId: STORE, webhookSecret: SECRET });
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  stored = invoice();
  storedMethods = [paymentMethod(), paymentMethod({ paymentMethodId: 'BTC-LN', destination: 'lnbcrt10937…' })];
  nextAnswer = undefined;
});

describe('creating an invoice', () => {
  it('posts the Greenfield request and answers the checkout link', async () => {
    const created = await provider.createInvoice(input);

    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe(`/api/v1/stores/${STORE}/invoices`);
    expect(request?.headers.authorization).toBe(`token ${API_KEY}`);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request?.body ?? '')).toEqual({
      amount: '700.00',
      currency: 'USD',
      metadata: { orderId: 'tx-0001', itemDesc: 'Terrafund startium pack' },
      checkout: { expirationMinutes: 30, redirectURL: input.returnUrl, redirectAutomatically: true },
    });
    expect(created).toEqual({
      invoiceId: 'CQZj4Qbm475EJQ5HsWeAbd',
      paymentUrl: 'https://btcpay.test/i/CQZj4Qbm475EJQ5HsWeAbd',
      expiresAt: new Date(1_767_616_200 * 1000),
    });
  });

  it('sends the amount as an exact decimal string', async () => {
    for (const [cents, amount] of [
      [120_000, '1200.00'],
      [1_234_567, '12345.67'],
      [5, '0.05'],
    ] as const) {
      await provider.createInvoice({ ...input, amountCents: cents });
      expect(JSON.parse(server.requests.at(-1)?.body ?? '').amount).toBe(amount);
    }
  });

  it('turns a 500 into a ProviderHttpError with the status and body', async () => {
    nextAnswer = { status: 500, json: { message: 'boom' } };
    const error = await provider.createInvoice(input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderHttpError);
    expect(error).toMatchObject({ status: 500, body: { message: 'boom' } });
    expect((error as Error).message).toBe(`BTCPay: POST /api/v1/stores/${STORE}/invoices failed: HTTP 500`);
    expect((error as Error).message).not.toContain(API_KEY);
  });

  it('rejects a wrong API key the way BTCPay does (401)', async () => {
    const wrongKey = createBtcpayProvider({ url: server.url, apiKey: 'nope', storeId: STORE, webhookSecret: SECRET });
    await expect(wrongKey.createInvoice(input)).rejects.toMatchObject({ status: 401 });
  });

  it('reports a network error clearly', async () => {
    const down = createBtcpayProvider({ url: await unusedUrl(), apiKey: API_KEY, storeId: STORE, webhookSecret: SECRET });
    const error = await down.createInvoice(input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderHttpError);
    expect((error as ProviderHttpError).status).toBeUndefined();
    expect((error as Error).message).toMatch(/failed: network error \(ECONNREFUSED\)/);
  });

  it('gives up after the timeout', async () => {
    nextAnswer = 'hang';
    const slow = createBtcpayProvider({ url: server.url, apiKey: API_KEY, storeId: STORE, webhookSecret: SECRET, timeoutMs: 200 });
    await expect(slow.createInvoice(input)).rejects.toThrow(/timed out after 200 ms/);
  });

  it('refuses a 2xx answer without id and checkoutLink', async () => {
    nextAnswer = { status: 200, json: { status: 'New' } };
    await expect(provider.createInvoice(input)).rejects.toThrow(/without id and checkoutLink/);
    nextAnswer = { status: 200, text: '<html>proxy page</html>' };
    await expect(provider.createInvoice(input)).rejects.toThrow(/without a JSON object/);
  });
});

describe('reading an invoice', () => {
  const status = () => provider.fetchStatus({ invoiceId: 'CQZj4Qbm475EJQ5HsWeAbd', expected });

  it('reads the store-scoped invoice with the API key', async () => {
    await status();
    expect(server.requests[0]).toMatchObject({
      method: 'GET',
      path: `/api/v1/stores/${STORE}/invoices/CQZj4Qbm475EJQ5HsWeAbd`,
      headers: { authorization: `token ${API_KEY}` },
    });
  });

  it('settles a Settled invoice for our order, in USD, for the pack amount', async () => {
    stored = invoice({ status: 'Settled' });
    expect(await status()).toEqual({
      state: 'settled',
      invoiceId: 'CQZj4Qbm475EJQ5HsWeAbd',
      orderId: 'tx-0001',
      amountCents: 70_000,
      currency: 'USD',
      rawStatus: 'Settled',
    });
    stored = invoice({ status: 'Settled', additionalStatus: 'Marked' });
    expect((await status()).state).toBe('settled');
  });

  it('keeps New and Processing pending: Processing is not final', async () => {
    stored = invoice({ status: 'New' });
    expect((await status()).state).toBe('pending');
    stored = invoice({ status: 'Processing' });
    expect(await status()).toMatchObject({ state: 'pending', rawStatus: 'Processing' });
  });

  it('marks a pending invoice with money on it, so it is not timed out while BTCPay confirms', async () => {
    stored = invoice({ status: 'New' });
    expect((await status()).paymentDetected).toBeUndefined();
    stored = invoice({ status: 'Processing' });
    expect((await status()).paymentDetected).toBe(true);
    stored = invoice({ status: 'New', additionalStatus: 'PaidPartial' });
    expect(await status()).toMatchObject({ state: 'pending', paymentDetected: true });
  });

  it('sends a Settled invoice with the wrong amount, currency or order to review', async () => {
    for (const overrides of [
      { amount: '699.99' },
      { amount: '7000.00' },
      { currency: 'EUR' },
      { metadata: { orderId: 'tx-9999' } },
      { metadata: {} },
      { metadata: null },
    ]) {
      stored = invoice({ status: 'Settled', ...overrides });
      expect(await status()).toMatchObject({ state: 'review', reviewReason: 'mismatch' });
    }
  });

  it('sends over-, partial and late payments to review', async () => {
    stored = invoice({ status: 'Settled', additionalStatus: 'PaidOver' });
    expect(await status()).toMatchObject({ state: 'review', reviewReason: 'over', rawStatus: 'Settled/PaidOver' });
    stored = invoice({ status: 'Expired', additionalStatus: 'PaidPartial' });
    expect(await status()).toMatchObject({ state: 'review', reviewReason: 'partial' });
    stored = invoice({ status: 'Expired', additionalStatus: 'PaidLate' });
    expect(await status()).toMatchObject({ state: 'review', reviewReason: 'late' });
  });

  it('reads what arrived from the payment methods once money is there: a partial payment on-chain', async () => {
    stored = invoice({ status: 'Expired', additionalStatus: 'PaidPartial' });
    storedMethods = [
      paymentMethod({ paymentMethodPaid: '0.00512000', totalPaid: '0.00512000', due: '0.00581750', payments: [received('0.00512000')] }),
      paymentMethod({ paymentMethodId: 'BTC-LN', totalPaid: '0.00512000', due: '0.00581750' }),
    ];
    expect(await status()).toMatchObject({ state: 'review', reviewReason: 'partial', paid: { amount: '0.00512000', currency: 'BTC' } });
    expect(server.requests.map((r) => r.path)).toEqual([
      `/api/v1/stores/${STORE}/invoices/CQZj4Qbm475EJQ5HsWeAbd`,
      `/api/v1/stores/${STORE}/invoices/CQZj4Qbm475EJQ5HsWeAbd/payment-methods`,
    ]);
    expect(server.requests[1]?.headers.authorization).toBe(`token ${API_KEY}`);
  });

  it('counts every method: a payment split over Lightning and on-chain is the total paid', async () => {
    stored = invoice({ status: 'Settled', additionalStatus: 'PaidOver' });
    storedMethods = [
      paymentMethod({ paymentMethodPaid: '0', totalPaid: '0.01200000', due: '-0.00106250' }),
      paymentMethod({ paymentMethodId: 'BTC-LN', paymentMethodPaid: '0.00700000', totalPaid: '0.01200000', due: '-0.00106250' }),
    ];
    expect(await status()).toMatchObject({ state: 'review', reviewReason: 'over', paid: { amount: '0.01200000', currency: 'BTC' } });
  });

  it('reads the payment methods of BTCPay 1.x too (paymentMethod, cryptoCode)', async () => {
    stored = invoice({ status: 'Expired', additionalStatus: 'PaidLate' });
    storedMethods = [{ paymentMethod: 'LTC', cryptoCode: 'LTC', rate: '85.12', paymentMethodPaid: '8.2236', totalPaid: '8.2236', due: '0', amount: '8.2236', networkFee: '0', payments: [] }];
    expect(await status()).toMatchObject({ state: 'review', reviewReason: 'late', paid: { amount: '8.2236', currency: 'LTC' } });
  });

  it('says nothing arrived when no method was paid, and does not ask while the invoice is pending or closed unpaid', async () => {
    stored = invoice({ status: 'Settled', amount: '1.00' });
    const mismatch = await status();
    expect(mismatch.state).toBe('review');
    expect(mismatch).not.toHaveProperty('paid');
    for (const change of [{ status: 'New' }, { status: 'Processing' }, { status: 'Expired' }, { status: 'Invalid' }]) {
      server.requests.length = 0;
      stored = invoice(change);
      expect(await status()).not.toHaveProperty('paid');
      expect(server.requests.map((r) => r.path.endsWith('/payment-methods')), change.status).toEqual([false]);
    }
  });

  it('still answers the status, without what arrived and saying why, when the payment methods cannot be read', async () => {
    stored = invoice({ status: 'Expired', additionalStatus: 'PaidPartial' });
    storedMethods = { error: 'not a list' };
    const held = await status();
    expect(held).toMatchObject({ state: 'review', reviewReason: 'partial', paidUnknown: expect.stringMatching(/payment methods answer is not a list/) });
    expect(held).not.toHaveProperty('paid');
    // An older BTCPay, or a proxy, without the endpoint: a settlement never waits for what is only shown.
    stored = invoice({ status: 'Settled', id: 'Other' });
    storedMethods = undefined;
    const settled = await provider.fetchStatus({ invoiceId: 'Other', expected });
    expect(settled).toMatchObject({ state: 'settled', paidUnknown: expect.stringMatching(/HTTP 404/) });
  });

  it('maps Expired to expired and Invalid to failed', async () => {
    stored = invoice({ status: 'Expired' });
    expect((await status()).state).toBe('expired');
    stored = invoice({ status: 'Invalid' });
    expect((await status()).state).toBe('failed');
  });

  it('fails clearly on an unknown invoice and on a server error', async () => {
    await expect(provider.fetchStatus({ invoiceId: 'nope', expected })).rejects.toMatchObject({
      status: 404,
      body: { code: 'invoice-not-found' },
    });
    nextAnswer = { status: 500, text: 'Internal Server Error' };
    await expect(status()).rejects.toMatchObject({ status: 500, body: 'Internal Server Error' });
  });
});

describe('webhook signatures', () => {
  /** BTCPay sends pretty-printed JSON (WebhookSender.cs), signed over the exact bytes. */
  const delivery = (overrides: Record<string, unknown> = {}) =>
    Buffer.from(
      JSON.stringify(
        {
          deliveryId: 'PENf2czGBzTepjzSJdt6Nz',
          webhookId: '6KQ4EmzqKowRgyBL65TwJg',
          originalDeliveryId: 'PENf2czGBzTepjzSJdt6Nz',
          isRedelivery: false,
          type: 'InvoiceSettled',
          timestamp: 1_623_954_207,
          storeId: STORE,
          invoiceId: 'CQZj4Qbm475EJQ5HsWeAbd',
          metadata: { orderId: 'tx-0001', itemDesc: 'Terrafund startium pack' },
          manuallyMarked: false,
          ...overrides,
        },
        null,
        2,
      ),
    );
  const sign = (body: Buffer | string, secret = SECRET) =>
    `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

  it('matches the published test vector byte for byte', () => {
    const body =
      '{\n  "deliveryId": "PENf2czGBzTepjzSJdt6Nz",\n  "webhookId": "6KQ4EmzqKowRgyBL65TwJg",\n  "originalDeliveryId": "PENf2czGBzTepjzSJdt6Nz",\n  "isRedelivery": false,\n  "type": "InvoiceCreated",\n  "timestamp": 1623954207,\n  "storeId": "Hf9GvFK2dHJehm9J8A6kYfbc1ruc5jEZBKEr9r7jsrLo",\n  "invoiceId": "CQZj4Qbm475EJQ5HsWeAbd"\n}';
    const signature = 'sha256=4ec27a6ca16dbc7b8c7ddfb5654b1f8dbf8c69a439e970fd2bfac6e19713f211';
    expect(sign(body, '5TjrCfkTgfjY4rJj85bTJj')).toBe(signature);

    const vectorProvider = createBtcpayProvider({ url: server.url, apiKey: API_KEY, storeId: STORE, webhookSecret: '5TjrCfkTgfjY4rJj85bTJj' });
    expect(vectorProvider.verifyNotification(Buffer.from(body), { 'btcpay-sig': signature })).toEqual({
      deliveryKey: 'PENf2czGBzTepjzSJdt6Nz',
      invoiceId: 'CQZj4Qbm475EJQ5HsWeAbd',
      orderId: undefined,
      type: 'InvoiceCreated',
      known: false,
    });
  });

  it('accepts a valid notification, whatever the header case', () => {
    const body = delivery();
    const expectedNotification = {
      deliveryKey: 'PENf2czGBzTepjzSJdt6Nz',
      invoiceId: 'CQZj4Qbm475EJQ5HsWeAbd',
      orderId: 'tx-0001',
      type: 'InvoiceSettled',
      known: true,
    };
    expect(provider.verifyNotification(body, { 'btcpay-sig': sign(body) })).toEqual(expectedNotification);
    expect(provider.verifyNotification(body, { 'BTCPay-Sig': [sign(body)] })).toEqual(expectedNotification);
  });

  it('refuses a body with one byte changed', () => {
    const body = delivery();
    const signature = sign(body);
    const tampered = Buffer.from(body);
    const at = tampered.indexOf('tx-0001') + 6;
    tampered[at] = '2'.charCodeAt(0);
    expect(tampered.toString()).toContain('tx-0002');
    expect(provider.verifyNotification(tampered, { 'btcpay-sig': signature })).toBeNull();
  });

  it('refuses the same JSON re-serialised: the signature covers the raw bytes', () => {
    const body = delivery();
    const compact = Buffer.from(JSON.stringify(JSON.parse(body.toString())));
    expect(JSON.parse(compact.toString())).toEqual(JSON.parse(body.toString()));
    expect(provider.verifyNotification(compact, { 'btcpay-sig': sign(body) })).toBeNull();
  });

  it('refuses missing, malformed, truncated and wrongly keyed signatures', () => {
    const body = delivery();
    const good = sign(body);
    for (const header of [
      undefined,
      '',
      good.slice('sha256='.length),
      good.replace('sha256=', 'sha512='),
      good.slice(0, -2),
      `${good}00`,
      `${good.slice(0, -1)}${good.endsWith('0') ? '1' : '0'}`,
      good.replace(/[0-9a-f]$/, 'z'),
      sign(body, 'another-secret'),
    ]) {
      expect(provider.verifyNotification(body, { 'btcpay-sig': header })).toBeNull();
    }
  });

  it('refuses a correctly signed body that is not a JSON object', () => {
    for (const text of ['not json', '[1,2]', '"text"']) {
      expect(provider.verifyNotification(Buffer.from(text), { 'btcpay-sig': sign(text) })).toBeNull();
    }
  });

  it('gives a delivery and its retries one dedupe key', () => {
    const first = delivery();
    const retry = delivery({ deliveryId: 'RETRYf2czGBzTepjzSJdt6', isRedelivery: true });
    const a = provider.verifyNotification(first, { 'btcpay-sig': sign(first) });
    const b = provider.verifyNotification(first, { 'btcpay-sig': sign(first) });
    const c = provider.verifyNotification(retry, { 'btcpay-sig': sign(retry) });
    expect(a?.deliveryKey).toBe('PENf2czGBzTepjzSJdt6Nz');
    expect(b?.deliveryKey).toBe(a?.deliveryKey);
    expect(c?.deliveryKey).toBe(a?.deliveryKey);

    const other = delivery({ deliveryId: 'OTHERczGBzTepjzSJdt6Nz', originalDeliveryId: 'OTHERczGBzTepjzSJdt6Nz' });
    expect(provider.verifyNotification(other, { 'btcpay-sig': sign(other) })?.deliveryKey).toBe('OTHERczGBzTepjzSJdt6Nz');
  });

  it('verifies but marks unknown types so they are acknowledged and ignored', () => {
    for (const type of ['InvoiceExpiredPaidPartial', 'InvoicePaidAfterExpiration', 'InvoiceCreated', 'PayoutCreated']) {
      const body = delivery({ type });
      expect(provider.verifyNotification(body, { 'btcpay-sig': sign(body) })).toMatchObject({ type, known: false });
    }
    for (const type of ['InvoiceSettled', 'InvoiceExpired', 'InvoiceInvalid', 'InvoiceProcessing', 'InvoiceReceivedPayment', 'InvoicePaymentSettled']) {
      const body = delivery({ type });
      expect(provider.verifyNotification(body, { 'btcpay-sig': sign(body) })).toMatchObject({ type, known: true });
    }
  });
});

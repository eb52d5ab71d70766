import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeServer, unusedUrl, type FakeAnswer, type ReceivedRequest } from '../../../test/fake-http-server';
import { invoiceInput } from '../../../test/invoice-input';
import { ProviderHttpError } from './http';
import {
  asciiDescription,
  createNowpaymentsProvider,
  isNowpaymentsProgress,
  nowpaymentsSignature,
  sortKeysDeep,
} from './nowpayments.provider';

const API_KEY = 'NP-API-KEY-1';
const IPN_SECRET = 'ipn-secret-1';

const input = invoiceInput('nowpayments');
const expected = { orderId: 'tx-0001', amountCents: 70_000 };

/** A payment as GET /v1/payment/{id} answers it (ids are numbers there). */
const payment = (overrides: Record<string, unknown> = {}) => ({
  payment_id: 5_077_125_051,
  invoice_id: 4_522_625_843,
  payment_status: 'waiting',
  pay_address: 'bc1qexampleaddress',
  price_amount: 700,
  price_currency: 'usd',
  pay_amount: 0.0112,
  actually_paid: 0,
  pay_currency: 'btc',
  order_id: 'tx-0001',
  order_description: 'Terrafund startium pack',
  purchase_id: '5837122679',
  created_at: '2026-01-05T12:00:00.000Z',
  updated_at: '2026-01-05T12:00:00.000Z',
  outcome_amount: 0.011,
  outcome_currency: 'btc',
  ...overrides,
});

let stored: Record<string, unknown> = payment();
let nextAnswer: FakeAnswer | undefined;

function nowpayments(request: ReceivedRequest): FakeAnswer {
  if (nextAnswer) return nextAnswer;
  if (request.headers['x-api-key'] !== API_KEY) return { status: 403, json: { status: false, statusCode: 403, code: 'INVALID_API_KEY', message: 'Invalid api key' } };
  if (request.method === 'POST' && request.path === '/v1/invoice') {
    const body = JSON.parse(request.body);
    return {
      status: 201,
      json: {
        id: '4522625843',
        token_id: '5321321312',
        order_id: body.order_id,
        order_description: body.order_description,
        price_amount: String(body.price_amount),
        price_currency: body.price_currency,
        pay_currency: null,
        ipn_callback_url: body.ipn_callback_url,
        invoice_url: 'https://nowpayments.io/payment/?iid=4522625843',
        success_url: body.success_url,
        cancel_url: body.cancel_url,
        created_at: '2026-01-05T12:00:00.000Z',
        updated_at: '2026-01-05T12:00:00.000Z',
      },
    };
  }
  const read = /^\/v1\/payment\/([^/]+)$/.exec(request.path);
  if (request.method === 'GET' && read) {
    return read[1] === String(stored.payment_id)
      ? { status: 200, json: stored }
      : { status: 404, json: { status: false, statusCode: 404, code: 'NOT_FOUND', message: 'Payment not found' } };
  }
  return { status: 404, text: 'Not Found' };
}

let server: Awaited<ReturnType<typeof startFakeServer>>;
let provider: ReturnType<typeof createNowpaymentsProvider>;

beforeAll(async () => {
  server = await startFakeServer(nowpayments);
  provider = createNowpaymentsProvider({ apiUrl: server.url, apiKey: API_KEY, ipnSecret: IPN_SECRET });
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  stored = payment();
  nextAnswer = undefined;
});

describe('creating an invoice', () => {
  it('posts the invoice request and answers the invoice URL', async () => {
    const created = await provider.createInvoice(input);

    const [request] = server.requests;
    expect(server.requests).toHaveLength(1);
    expect(request).toMatchObject({ method: 'POST', path: '/v1/invoice', headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' } });
    expect(JSON.parse(request?.body ?? '')).toEqual({
      price_amount: 700,
      price_currency: 'usd',
      order_id: 'tx-0001',
      order_description: 'Terrafund startium pack',
      ipn_callback_url: input.notifyUrl,
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
      partially_paid_url: input.returnUrl,
    });
    expect(created).toEqual({ invoiceId: '4522625843', paymentUrl: 'https://nowpayments.io/payment/?iid=4522625843' });
  });

  it('sends exact amounts and an ASCII description', async () => {
    await provider.createInvoice({ ...input, amountCents: 1_234_567, description: 'Pack “Gold” — €2 500, déjà vu ✓' });
    const body = JSON.parse(server.requests[0]?.body ?? '');
    expect(body.price_amount).toBe(12_345.67);
    expect(body.order_description).toBe('Pack Gold 2 500, deja vu');
    expect(asciiDescription('Café\u0000 ünï')).toBe('Cafe uni');
  });

  it('accepts a numeric invoice id and normalises it to a string', async () => {
    nextAnswer = { status: 201, json: { id: 4_522_625_843, invoice_url: 'https://nowpayments.io/payment/?iid=4522625843' } };
    expect((await provider.createInvoice(input)).invoiceId).toBe('4522625843');
  });

  it('turns a 500, a wrong key and a network error into clear ProviderHttpErrors', async () => {
    nextAnswer = { status: 500, json: { message: 'Internal error' } };
    const error = await provider.createInvoice(input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderHttpError);
    expect(error).toMatchObject({ status: 500, body: { message: 'Internal error' }, message: 'NOWPayments: POST /v1/invoice failed: HTTP 500' });

    nextAnswer = undefined;
    const wrongKey = createNowpaymentsProvider({ apiUrl: server.url, apiKey: 'wrong', ipnSecret: IPN_SECRET });
    await expect(wrongKey.createInvoice(input)).rejects.toMatchObject({ status: 403, body: { code: 'INVALID_API_KEY' } });

    const down = createNowpaymentsProvider({ apiUrl: await unusedUrl(), apiKey: API_KEY, ipnSecret: IPN_SECRET });
    await expect(down.createInvoice(input)).rejects.toThrow(/NOWPayments: POST \/v1\/invoice failed: network error \(ECONNREFUSED\)/);
  });

  it('refuses a 2xx answer without id and invoice_url', async () => {
    nextAnswer = { status: 201, json: { order_id: 'tx-0001' } };
    await expect(provider.createInvoice(input)).rejects.toThrow(/without id and invoice_url/);
  });
});

describe('reading a payment', () => {
  const status = (ref: { invoiceId?: string } = { invoiceId: '4522625843' }) =>
    provider.fetchStatus({ ...ref, paymentId: '5077125051', expected });

  it('reads the payment with the API key', async () => {
    await status();
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/v1/payment/5077125051', headers: { 'x-api-key': API_KEY } });
  });

  it('settles a finished payment for our order, amount and currency, ids as strings', async () => {
    stored = payment({ payment_status: 'finished' });
    expect(await status()).toEqual({
      state: 'settled',
      paymentId: '5077125051',
      invoiceId: '4522625843',
      orderId: 'tx-0001',
      amountCents: 70_000,
      currency: 'usd',
      rawStatus: 'finished',
    });
    stored = payment({ payment_status: 'finished', price_amount: '700.00', payment_id: '5077125051' });
    expect((await status()).state).toBe('settled');
  });

  it('keeps the in-progress statuses pending', async () => {
    for (const payment_status of ['waiting', 'confirming', 'confirmed', 'sending']) {
      stored = payment({ payment_status });
      expect(await status()).toMatchObject({ state: 'pending', rawStatus: payment_status });
    }
  });

  it('marks a payment on its way, so the invoice is not timed out while it confirms', async () => {
    stored = payment({ payment_status: 'waiting' });
    expect((await status()).paymentDetected).toBeUndefined();
    for (const payment_status of ['confirming', 'confirmed', 'sending']) {
      stored = payment({ payment_status });
      expect((await status()).paymentDetected).toBe(true);
    }
  });

  it('maps partially_paid to review, failed and refunded to failed, expired to expired', async () => {
    stored = payment({ payment_status: 'partially_paid' });
    expect(await status()).toMatchObject({ state: 'review', reviewReason: 'partial' });
    stored = payment({ payment_status: 'failed' });
    expect((await status()).state).toBe('failed');
    stored = payment({ payment_status: 'refunded' });
    expect((await status()).state).toBe('failed');
    stored = payment({ payment_status: 'expired' });
    expect((await status()).state).toBe('expired');
  });

  it('reports what arrived: actually_paid in pay_currency, exactly as written', async () => {
    stored = payment({ payment_status: 'partially_paid', actually_paid: 0.005, pay_currency: 'btc' });
    expect(await status()).toMatchObject({ state: 'review', reviewReason: 'partial', paid: { amount: '0.005', currency: 'BTC' } });
    stored = payment({ payment_status: 'partially_paid', actually_paid: '0.00500000', pay_currency: 'btc' });
    expect((await status()).paid).toEqual({ amount: '0.00500000', currency: 'BTC' });
    // A JSON number small enough to print with an exponent still reads as a plain decimal.
    stored = payment({ payment_status: 'confirming', actually_paid: 1e-7, pay_currency: 'btc' });
    expect((await status()).paid).toEqual({ amount: '0.0000001', currency: 'BTC' });
    stored = payment({ payment_status: 'finished', actually_paid: 700.5, pay_currency: 'usdttrc20' });
    expect((await status()).paid).toEqual({ amount: '700.5', currency: 'USDTTRC20' });
    for (const actually_paid of [0, null, undefined, -1, 'lots']) {
      stored = payment({ payment_status: 'waiting', actually_paid });
      expect(await status(), String(actually_paid)).not.toHaveProperty('paid');
    }
  });

  it('sends a finished payment for another order, amount, currency or invoice to review', async () => {
    for (const overrides of [
      { price_amount: 699.99 },
      { price_amount: 1200 },
      { price_amount: 700.001 },
      { price_currency: 'eur' },
      { order_id: 'tx-9999' },
      { order_id: null },
      { invoice_id: 1 },
    ]) {
      stored = payment({ payment_status: 'finished', ...overrides });
      expect(await status()).toMatchObject({ state: 'review', reviewReason: 'mismatch' });
    }
  });

  it('answers pending without a call when no payment exists yet: an invoice has no status', async () => {
    expect(await provider.fetchStatus({ invoiceId: '4522625843', expected })).toEqual({
      state: 'pending',
      invoiceId: '4522625843',
      rawStatus: 'no_payment',
    });
    expect(server.requests).toHaveLength(0);
  });

  it('fails clearly on an unknown payment and on a server error', async () => {
    await expect(provider.fetchStatus({ paymentId: '1', expected })).rejects.toMatchObject({ status: 404 });
    nextAnswer = { status: 500, text: 'Internal Server Error' };
    await expect(status()).rejects.toMatchObject({ status: 500, body: 'Internal Server Error' });
  });
});

describe('IPN signatures', () => {
  /** An IPN as NOWPayments sends it: payment_id a number, a nested fee object. */
  const ipn = (overrides: Record<string, unknown> = {}) => ({
    payment_id: 5_077_125_051,
    parent_payment_id: null,
    invoice_id: 4_522_625_843,
    payment_status: 'finished',
    pay_address: 'bc1qexampleaddress',
    payin_extra_id: null,
    price_amount: 700,
    price_currency: 'usd',
    pay_amount: 0.0112,
    actually_paid: 0.0112,
    actually_paid_at_fiat: 0,
    pay_currency: 'btc',
    order_id: 'tx-0001',
    order_description: 'Terrafund startium pack',
    purchase_id: '5837122679',
    outcome_amount: 0.011,
    outcome_currency: 'btc',
    payment_extra_ids: null,
    fee: { currency: 'btc', depositFee: 0, withdrawalFee: 0.0001, serviceFee: 0.00005 },
    ...overrides,
  });
  /** How NOWPayments signs (the official SDK's algorithm), independent of the code under test. */
  const sortDeep = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sortDeep)
      : value && typeof value === 'object'
        ? Object.fromEntries(
            Object.keys(value)
              .sort()
              .map((k) => [k, sortDeep((value as Record<string, unknown>)[k])]),
          )
        : value;
  const sign = (payload: unknown, secret = IPN_SECRET) =>
    createHmac('sha512', secret.trim()).update(JSON.stringify(sortDeep(payload))).digest('hex');
  const deliver = (payload: unknown, signature = sign(payload)) =>
    provider.verifyNotification(Buffer.from(JSON.stringify(payload)), { 'x-nowpayments-sig': signature });

  it('matches the published test vector', () => {
    const payload = { b: 2, a: { d: 4, c: 3 } };
    expect(JSON.stringify(sortKeysDeep(payload))).toBe('{"a":{"c":3,"d":4},"b":2}');
    const vector =
      '1b6be51d5b318df11f120aaf9ee56ba94b34bd97a1a35fa90b3e46b6de55baf094487d61d30a73bf589c3b5afa6c7aeb8e204ebfadfa66b1d26eb7031c1f6dec';
    expect(nowpaymentsSignature(payload, 'secret')).toBe(vector);
    const vectorProvider = createNowpaymentsProvider({ apiKey: API_KEY, ipnSecret: 'secret' });
    expect(vectorProvider.verifyNotification(Buffer.from('{ "b": 2, "a": { "d": 4, "c": 3 } }'), { 'x-nowpayments-sig': vector })).toEqual({
      deliveryKey: ':',
      paymentId: undefined,
      invoiceId: undefined,
      orderId: undefined,
      type: '',
      known: false,
    });
  });

  it('accepts a valid IPN and normalises its ids to strings', () => {
    expect(deliver(ipn())).toEqual({
      deliveryKey: '5077125051:finished',
      paymentId: '5077125051',
      invoiceId: '4522625843',
      orderId: 'tx-0001',
      type: 'finished',
      known: true,
    });
  });

  it('accepts the same IPN with its keys in another order: the signature covers the canonical form', () => {
    const payload = ipn();
    const reordered = Object.fromEntries(Object.entries(payload).reverse());
    reordered.fee = { serviceFee: 0.00005, withdrawalFee: 0.0001, depositFee: 0, currency: 'btc' };
    const pretty = Buffer.from(JSON.stringify(reordered, null, 2));
    expect(pretty.toString()).not.toBe(JSON.stringify(payload));
    expect(provider.verifyNotification(pretty, { 'x-nowpayments-sig': sign(payload) })?.deliveryKey).toBe('5077125051:finished');
  });

  it('refuses an IPN with one byte changed, at the top level or in a nested object', () => {
    const payload = ipn();
    const signature = sign(payload);
    const raw = Buffer.from(JSON.stringify(payload));
    const tampered = Buffer.from(raw);
    tampered[raw.indexOf('"price_amount":700') + '"price_amount":'.length] = '8'.charCodeAt(0);
    expect(tampered.toString()).toContain('"price_amount":800');
    expect(provider.verifyNotification(tampered, { 'x-nowpayments-sig': signature })).toBeNull();
    expect(deliver(ipn({ fee: { ...payload.fee, serviceFee: 0 } }), signature)).toBeNull();
  });

  it('refuses the signature of the old replacer-array one-liner, which drops nested objects', () => {
    const payload = ipn();
    const oldStyle = createHmac('sha512', IPN_SECRET)
      .update(JSON.stringify(payload, Object.keys(payload).sort()))
      .digest('hex');
    expect(deliver(payload, oldStyle)).toBeNull();
  });

  it('refuses missing, malformed and wrongly keyed signatures, and bodies that are not JSON objects', () => {
    const payload = ipn();
    const good = sign(payload);
    for (const header of ['', good.slice(0, -2), `${good}00`, good.toUpperCase().replace(/.$/, 'Z'), sign(payload, 'other'), `sha512=${good}`]) {
      expect(deliver(payload, header)).toBeNull();
    }
    expect(provider.verifyNotification(Buffer.from(JSON.stringify(payload)), {})).toBeNull();
    expect(provider.verifyNotification(Buffer.from('not json'), { 'x-nowpayments-sig': good })).toBeNull();
    expect(provider.verifyNotification(Buffer.from('[1]'), { 'x-nowpayments-sig': sign([1]) })).toBeNull();
  });

  it('keys the secret trimmed, as NOWPayments does', () => {
    const padded = createNowpaymentsProvider({ apiKey: API_KEY, ipnSecret: `  ${IPN_SECRET}\n` });
    const payload = ipn();
    expect(padded.verifyNotification(Buffer.from(JSON.stringify(payload)), { 'x-nowpayments-sig': sign(payload) })).not.toBeNull();
  });

  it('dedupes on payment_id and payment_status', () => {
    const first = deliver(ipn());
    const again = deliver(ipn());
    const confirming = deliver(ipn({ payment_status: 'confirming' }));
    const otherPayment = deliver(ipn({ payment_id: 5_077_125_052 }));
    expect(again?.deliveryKey).toBe(first?.deliveryKey);
    expect(confirming?.deliveryKey).toBe('5077125051:confirming');
    expect(otherPayment?.deliveryKey).toBe('5077125052:finished');
  });

  it('verifies but marks an unknown status', () => {
    expect(deliver(ipn({ payment_status: 'wrong_asset_confirmed' }))).toMatchObject({ type: 'wrong_asset_confirmed', known: false });
  });
});

describe('status order', () => {
  it('moves forward and ignores regressions, repeats and unknown statuses', () => {
    expect(isNowpaymentsProgress(undefined, 'waiting')).toBe(true);
    expect(isNowpaymentsProgress('waiting', 'confirming')).toBe(true);
    expect(isNowpaymentsProgress('confirming', 'finished')).toBe(true);
    expect(isNowpaymentsProgress('partially_paid', 'finished')).toBe(true);
    expect(isNowpaymentsProgress('finished', 'refunded')).toBe(true);

    expect(isNowpaymentsProgress('finished', 'confirming')).toBe(false);
    expect(isNowpaymentsProgress('sending', 'waiting')).toBe(false);
    expect(isNowpaymentsProgress('finished', 'finished')).toBe(false);
    expect(isNowpaymentsProgress('finished', 'failed')).toBe(false);
    expect(isNowpaymentsProgress('expired', 'finished')).toBe(false);
    expect(isNowpaymentsProgress('waiting', 'bogus')).toBe(false);
    expect(isNowpaymentsProgress('waiting', 'toString')).toBe(false);
  });
});

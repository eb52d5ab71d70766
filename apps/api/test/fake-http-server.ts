import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the fake provider received it. */
export type ReceivedRequest = { method: string; path: string; headers: IncomingHttpHeaders; body: string };

/** What the fake answers: a status and a JSON body (or raw text), or `hang` to never answer. */
export type FakeAnswer = { status: number; json?: unknown; text?: string } | 'hang';

/**
 * A stand-in for a provider's API on 127.0.0.1, for adapter tests: records every request and answers
 * with what the test's handler returns.
 */
export async function startFakeServer(handler: (request: ReceivedRequest) => FakeAnswer) {
  const requests: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(request);
      const answer = handler(request);
      if (answer === 'hang') return;
      const text = answer.json === undefined ? (answer.text ?? '') : JSON.stringify(answer.json);
      res.writeHead(answer.status, { 'content-type': answer.json === undefined ? 'text/plain' : 'application/json' });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A provider stand-in that can be taken down: every request is answered with `down`'s answer (a 503, a hang…) until `up()`. */
async function startFakeProvider(handler: (request: ReceivedRequest) => FakeAnswer) {
  let outage: FakeAnswer | undefined;
  const server = await startFakeServer((request) => outage ?? handler(request));
  return {
    ...server,
    /** Every request is answered with `answer` (a 503, a hang…) until `up()`. */
    down(answer: FakeAnswer = { status: 503, text: 'Service Unavailable' }) {
      outage = answer;
    },
    up() {
      outage = undefined;
    },
  };
}

/** An address where nothing listens: a port that was just freed. */
export async function unusedUrl(): Promise<string> {
  const server = await startFakeServer(() => ({ status: 200, json: {} }));
  await server.close();
  return server.url;
}

/** Credentials the fake providers expect; tests configure the app with the same ones. */
export const FAKE_BTCPAY = { apiKey: 'fake-btcpay-api-key', storeId: 'FakeStore1111111111111111111111111111111111', webhookSecret: 'fake-btcpay-webhook-secret' };
export const FAKE_NOWPAYMENTS = { apiKey: 'FAKE-NOWPAYMENTS-KEY', ipnSecret: 'fake-nowpayments-ipn-secret' };

let fakeIds = 0;
const fakeId = (prefix: string) => `${prefix}${Date.now().toString(36)}${(fakeIds += 1).toString(36).padStart(4, '0')}`;

/** A signed notification as a provider would POST it: the exact bytes and the headers. */
export type FakeDelivery = { body: Buffer; headers: Record<string, string> };

/**
 * A BTCPay Server (Greenfield) stand-in: creates invoices, answers GET for them with whatever status the test
 * sets, and signs webhooks the way WebhookSender.cs does (pretty-printed JSON, BTCPay-Sig over the bytes).
 */
export async function startFakeBtcpay() {
  const invoices = new Map<string, Record<string, unknown>>();
  /** Each invoice's payment methods as GET …/payment-methods answers them, with the payments received. */
  const methods = new Map<string, FakePaymentMethod[]>();
  const server = await startFakeProvider((request) => {
    if (request.headers.authorization !== `token ${FAKE_BTCPAY.apiKey}`) return { status: 401, json: { code: 'unauthenticated' } };
    const store = `/api/v1/stores/${FAKE_BTCPAY.storeId}/invoices`;
    if (request.method === 'POST' && request.path === store) {
      const body = JSON.parse(request.body) as { amount: string; currency: string; metadata: Record<string, unknown>; checkout: { expirationMinutes: number } };
      const id = fakeId('Btc');
      const invoice = {
        id,
        storeId: FAKE_BTCPAY.storeId,
        amount: body.amount,
        currency: body.currency,
        type: 'Standard',
        checkoutLink: `https://btcpay.fake/i/${id}`,
        createdTime: Math.floor(Date.now() / 1000),
        expirationTime: Math.floor(Date.now() / 1000) + body.checkout.expirationMinutes * 60,
        status: 'New',
        additionalStatus: 'None',
        metadata: body.metadata,
        checkout: body.checkout,
      };
      invoices.set(id, invoice);
      methods.set(id, fakePaymentMethods(id, body.amount));
      return { status: 200, json: invoice };
    }
    const ofInvoice = new RegExp(`^${store}/([^/]+)/payment-methods$`).exec(request.path);
    if (request.method === 'GET' && ofInvoice) {
      const found = methods.get(decodeURIComponent(ofInvoice[1]!));
      if (found) return { status: 200, json: found.map((method) => fakeMethodAnswer(method, found)) };
      return { status: 404, json: { code: 'invoice-not-found', message: 'The invoice was not found' } };
    }
    const id = request.path.startsWith(`${store}/`) ? decodeURIComponent(request.path.slice(store.length + 1)) : undefined;
    const invoice = id === undefined ? undefined : invoices.get(id);
    if (request.method === 'GET' && invoice) return { status: 200, json: invoice };
    return { status: 404, json: { code: 'invoice-not-found', message: 'The invoice was not found' } };
  });

  const sign = (body: Buffer | string) => `sha256=${createHmac('sha256', FAKE_BTCPAY.webhookSecret).update(body).digest('hex')}`;
  return {
    ...server,
    invoices,
    /** Changes what GET answers for an invoice (status, additionalStatus, amount…). */
    set(id: string, change: Record<string, unknown>) {
      const invoice = invoices.get(id);
      if (!invoice) throw new Error(`fake BTCPay has no invoice ${id}`);
      Object.assign(invoice, change);
    },
    /**
     * The member sends `btc` (a decimal string, e.g. "0.00512000") to the invoice by `paymentMethodId`: a
     * payment appears under that method, and every method's paid, total paid and due follow, as BTCPay counts
     * them. Invoice statuses are the test's to `set`.
     */
    receive(invoiceId: string, btc: string, paymentMethodId: 'BTC-CHAIN' | 'BTC-LN' = 'BTC-CHAIN') {
      const list = methods.get(invoiceId);
      const method = list?.find((m) => m.paymentMethodId === paymentMethodId);
      if (!list || !method) throw new Error(`fake BTCPay has no ${paymentMethodId} payment method for invoice ${invoiceId}`);
      method.payments.push({
        id: fakeId('Pay'),
        receivedDate: Math.floor(Date.now() / 1000),
        value: btc,
        fee: '0.00000000',
        status: 'Settled',
        destination: method.destination,
      });
    },
    /** A webhook delivery for `invoiceId`, signed like BTCPay signs it. */
    delivery(invoiceId: string, type: string, overrides: Record<string, unknown> = {}): FakeDelivery {
      const deliveryId = fakeId('Dlv');
      const invoice = invoices.get(invoiceId);
      const body = Buffer.from(
        JSON.stringify(
          {
            deliveryId,
            webhookId: 'FakeWebhook1',
            originalDeliveryId: deliveryId,
            isRedelivery: false,
            type,
            timestamp: Math.floor(Date.now() / 1000),
            storeId: FAKE_BTCPAY.storeId,
            invoiceId,
            metadata: invoice?.metadata ?? {},
            ...overrides,
          },
          null,
          2,
        ),
      );
      return { body, headers: { 'content-type': 'application/json', 'btcpay-sig': sign(body) } };
    },
    sign,
  };
}
export type FakeBtcpay = Awaited<ReturnType<typeof startFakeBtcpay>>;

/** The fake store's BTC rate in USD; every method of its invoices is in BTC. */
const FAKE_BTC_RATE = '64000.00';
const SATS = 100_000_000n;

type FakePayment = { id: string; receivedDate: number; value: string; fee: string; status: 'Settled'; destination: string };
type FakePaymentMethod = { paymentMethodId: 'BTC-CHAIN' | 'BTC-LN'; destination: string; amountSats: bigint; payments: FakePayment[] };

/** Satoshis of a decimal BTC string ("0.00512" → 512000n), exactly. */
const satsOf = (btc: string) => {
  const [whole = '0', fraction = ''] = btc.split('.');
  return BigInt(whole) * SATS + BigInt(fraction.padEnd(8, '0').slice(0, 8));
};
/** Satoshis as BTCPay writes BTC: eight places, a minus when negative (an over-paid invoice's due). */
const btcOf = (sats: bigint) => {
  const sign = sats < 0n ? '-' : '';
  const abs = sats < 0n ? -sats : sats;
  return `${sign}${abs / SATS}.${(abs % SATS).toString().padStart(8, '0')}`;
};

/** An invoice's on-chain and Lightning methods, priced at the fake rate, nothing paid yet. */
function fakePaymentMethods(invoiceId: string, usd: string): FakePaymentMethod[] {
  const [dollars = '0', cents = '0'] = usd.split('.');
  const usdCents = BigInt(dollars) * 100n + BigInt(cents.padEnd(2, '0').slice(0, 2));
  const amountSats = (usdCents * SATS) / (BigInt(FAKE_BTC_RATE.replace('.', '')));
  return [
    { paymentMethodId: 'BTC-CHAIN', destination: `bcrt1qfake${invoiceId.toLowerCase()}`, amountSats, payments: [] },
    { paymentMethodId: 'BTC-LN', destination: `lnbcrt1fake${invoiceId.toLowerCase()}`, amountSats, payments: [] },
  ];
}

/**
 * One method as Greenfield's InvoicePaymentMethodDataModel answers it (BTCPay 2): `paymentMethodPaid` what
 * came by this method, `totalPaid` what came by all of them (here all in BTC), `due` what is left, negative
 * when over-paid.
 */
function fakeMethodAnswer(method: FakePaymentMethod, all: FakePaymentMethod[]) {
  const paidBy = (m: FakePaymentMethod) => m.payments.reduce((sum, payment) => sum + satsOf(payment.value), 0n);
  const total = all.reduce((sum, m) => sum + paidBy(m), 0n);
  return {
    paymentMethodId: method.paymentMethodId,
    currency: 'BTC',
    destination: method.destination,
    paymentLink: method.paymentMethodId === 'BTC-CHAIN' ? `bitcoin:${method.destination}` : `lightning:${method.destination}`,
    rate: FAKE_BTC_RATE,
    paymentMethodPaid: btcOf(paidBy(method)),
    totalPaid: btcOf(total),
    due: btcOf(method.amountSats - total),
    amount: btcOf(method.amountSats),
    paymentMethodFee: '0.00000000',
    payments: method.payments,
    activated: true,
    additionalData: {},
  };
}

/** NOWPayments' canonical JSON: keys sorted at every depth (the official SDK's sortObjectDeep). */
function sortDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortDeep);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortDeep((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/**
 * A NOWPayments stand-in: creates invoices, holds payments made under them (the test makes them), answers
 * GET /v1/payment/{id}, and signs IPNs as NOWPayments does (HMAC-SHA512 over the key-sorted JSON).
 */
export async function startFakeNowpayments() {
  const invoices = new Map<string, Record<string, unknown>>();
  const payments = new Map<string, Record<string, unknown>>();
  let nextPaymentId = 5_077_125_000;
  const server = await startFakeProvider((request) => {
    if (request.headers['x-api-key'] !== FAKE_NOWPAYMENTS.apiKey) return { status: 403, json: { code: 'INVALID_API_KEY' } };
    if (request.method === 'POST' && request.path === '/v1/invoice') {
      const body = JSON.parse(request.body) as Record<string, unknown>;
      const id = String(4_522_625_000 + invoices.size + Math.floor(Math.random() * 1000) * 10_000);
      const invoice = { ...body, id, invoice_url: `https://nowpayments.fake/payment/?iid=${id}`, price_amount: String(body.price_amount) };
      invoices.set(id, invoice);
      return { status: 201, json: invoice };
    }
    const read = /^\/v1\/payment\/([^/]+)$/.exec(request.path);
    const payment = read ? payments.get(decodeURIComponent(read[1]!)) : undefined;
    if (request.method === 'GET' && payment) return { status: 200, json: payment };
    return { status: 404, json: { code: 'NOT_FOUND', message: 'Payment not found' } };
  });

  const sign = (payload: unknown) => createHmac('sha512', FAKE_NOWPAYMENTS.ipnSecret).update(JSON.stringify(sortDeep(payload))).digest('hex');
  return {
    ...server,
    invoices,
    payments,
    /** The member pays under `invoiceId`: a payment with the invoice's price, waiting; answers its id (a number). */
    pay(invoiceId: string, change: Record<string, unknown> = {}): number {
      const invoice = invoices.get(invoiceId);
      if (!invoice) throw new Error(`fake NOWPayments has no invoice ${invoiceId}`);
      const id = (nextPaymentId += 1);
      payments.set(String(id), {
        payment_id: id,
        invoice_id: Number(invoiceId),
        payment_status: 'waiting',
        pay_address: 'bc1qfakeaddress',
        price_amount: Number(invoice.price_amount),
        price_currency: invoice.price_currency,
        pay_amount: 0.0112,
        actually_paid: 0,
        pay_currency: 'btc',
        order_id: invoice.order_id,
        order_description: invoice.order_description,
        purchase_id: String(id + 1),
        outcome_amount: 0.011,
        outcome_currency: 'btc',
        ...change,
      });
      return id;
    },
    set(paymentId: number, change: Record<string, unknown>) {
      const payment = payments.get(String(paymentId));
      if (!payment) throw new Error(`fake NOWPayments has no payment ${paymentId}`);
      Object.assign(payment, change);
    },
    /** An IPN for the payment as it stands (plus `overrides`), signed like NOWPayments signs it. */
    ipn(paymentId: number, overrides: Record<string, unknown> = {}): FakeDelivery {
      const payload = { ...payments.get(String(paymentId)), fee: { currency: 'btc', depositFee: 0, withdrawalFee: 0, serviceFee: 0 }, ...overrides };
      const body = Buffer.from(JSON.stringify(payload));
      return { body, headers: { 'content-type': 'application/json', 'x-nowpayments-sig': sign(payload) } };
    },
    sign,
  };
}
export type FakeNowpayments = Awaited<ReturnType<typeof startFakeNowpayments>>;

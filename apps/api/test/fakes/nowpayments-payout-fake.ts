import { createHmac, randomBytes } from 'node:crypto';
import { isValidWithdrawalAddress, WITHDRAWAL_ASSET_CATALOGUE, type WithdrawalAssetId } from '@terrafund/contracts';
import { Secret, TOTP } from 'otpauth';
import {
  deliveryLog,
  isRecord,
  jsonBody,
  realClock,
  startProviderFake,
  type FakeClock,
  type FakeDelivery,
  type FakeReply,
  type FakeRequest,
} from './provider-fake-server';

/**
 * NOWPayments' payout API as its documentation (Postman collection 2s93JusNJt, "Payouts") describes it:
 * `POST /v1/auth` gives a JWT valid 5 minutes; `POST /v1/payout` and `/verify` need `x-api-key` and
 * `Authorization: Bearer`; a batch waits for its 2FA code (10 attempts, rejected after an hour unverified), then
 * moves WAITING → PROCESSING → SENDING → FINISHED (or FAILED, REJECTED) when the test says so, with a signed
 * payout IPN to the withdrawal's `ipn_callback_url` at every move. Errors are `{status: false, statusCode, code,
 * message}`.
 *
 *     const np = await startNowpaymentsFake({ clock });   // the app's clock: JWT expiry and TOTP move with it
 *     // configure the app with np.url, np.apiKey, np.email, np.password, np.twoFactorSecret, np.ipnSecret
 *     np.setStatus(batchId, 'SENDING');
 *     np.finish(batchId);                                 // FINISHED with a hash, IPN sent
 *     await np.settled();
 *
 * Where the documentation is silent the fake chooses, and says so: the error codes for a wrong 2FA code, an
 * already verified batch and a short balance; `unique_external_id` is not unique-checked (`uniqueExternalIds`
 * turns that on).
 */
export const NOWPAYMENTS_FAKE_DEFAULTS = {
  apiKey: 'FAKE-NOWPAYMENTS-PAYOUT-KEY',
  email: 'payouts@terrafund.test',
  password: 'fake-nowpayments-password',
  /** Base32, as an authenticator app is given it. */
  twoFactorSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  ipnSecret: 'fake-nowpayments-payout-ipn-secret',
};

export type NowpaymentsPayoutStatus = 'CREATING' | 'WAITING' | 'PROCESSING' | 'SENDING' | 'FINISHED' | 'FAILED' | 'REJECTED';

type Withdrawal = {
  is_request_payouts: boolean;
  id: string;
  address: string;
  currency: string;
  amount: string;
  fiat_amount: number | null;
  fiat_currency: string | null;
  batch_withdrawal_id: string;
  ipn_callback_url: string | null;
  status: NowpaymentsPayoutStatus;
  extra_id: string | null;
  hash: string | null;
  error: string | null;
  payout_description: string | null;
  unique_external_id: string | null;
  created_at: string;
  requested_at: string | null;
  updated_at: string | null;
};

type Batch = { id: string; createdAt: Date; verified: boolean; attempts: number; withdrawals: Withdrawal[] };

const JWT_LIFETIME_MS = 5 * 60_000;
const VERIFY_WINDOW_MS = 60 * 60_000;
const MAX_VERIFY_ATTEMPTS = 10;
const CURRENCY_ASSETS = new Map<string, WithdrawalAssetId>(
  Object.values(WITHDRAWAL_ASSET_CATALOGUE).map((asset) => [asset.nowpaymentsCurrency, asset.id]),
);

const npError = (statusCode: number, code: string, message: string): FakeReply => ({ status: statusCode, json: { status: false, statusCode, code, message } });
const invalid = (message: string) => npError(400, 'INVALID_REQUEST_PARAMS', message);

/** NOWPayments' canonical JSON for signatures: keys sorted at every depth. */
function sortDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortDeep);
  if (isRecord(value)) return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortDeep(value[key])]));
  return value;
}

type Options = {
  apiKey?: string;
  email?: string;
  password?: string;
  twoFactorSecret?: string;
  ipnSecret?: string;
  clock?: FakeClock;
  /** The status a batch has before its code: the docs show WAITING in create's answer and speak of 'creating'. */
  createdStatus?: 'WAITING' | 'CREATING';
  /** USD per coin, for `fiat_amount`. */
  rates?: Record<string, number>;
  /** Coins held per currency; a payout above it is refused. */
  balances?: Record<string, number>;
  /** Refuse a second withdrawal with the same unique_external_id (undocumented; off by default). */
  uniqueExternalIds?: boolean;
  /** TOTP steps of drift accepted either way (0: only the current step's code). */
  totpWindow?: number;
};

export async function startNowpaymentsFake(options: Options = {}) {
  const creds = { ...NOWPAYMENTS_FAKE_DEFAULTS, ...options };
  const clock = options.clock ?? realClock;
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(creds.twoFactorSecret) });
  const rates: Record<string, number> = { btc: 100_000, ltc: 100, eth: 4_000, usdterc20: 1, usdttrc20: 1, ...options.rates };
  const balances: Record<string, number> = { btc: 10, ltc: 1_000, eth: 100, usdterc20: 100_000, usdttrc20: 100_000, ...options.balances };
  const tokens = new Map<string, number>();
  const batches = new Map<string, Batch>();
  const sent = deliveryLog();
  let nextId = 5_000_000_000;
  const iso = () => clock.now().toISOString();

  const sign = (payload: unknown) => createHmac('sha512', creds.ipnSecret.trim()).update(JSON.stringify(sortDeep(payload))).digest('hex');

  /** Unverified for an hour: rejected. Read lazily, so the test's clock decides. */
  function age(batch: Batch) {
    if (batch.verified || clock.now().getTime() - batch.createdAt.getTime() < VERIFY_WINDOW_MS) return;
    for (const w of batch.withdrawals) {
      if (w.status === 'CREATING' || w.status === 'WAITING') {
        w.status = 'REJECTED';
        w.error = 'The payout was not verified within an hour';
        w.updated_at = iso();
      }
    }
  }

  function ipnPayload(w: Withdrawal, overrides: Record<string, unknown> = {}) {
    return {
      id: w.id,
      batch_withdrawal_id: w.batch_withdrawal_id,
      status: w.status,
      error: w.error,
      currency: w.currency,
      amount: w.amount,
      address: w.address,
      fee: null,
      extra_id: w.extra_id,
      hash: w.hash,
      ipn_callback_url: w.ipn_callback_url,
      created_at: w.created_at,
      requested_at: w.requested_at,
      updated_at: w.updated_at,
      ...overrides,
    };
  }

  /** A payout IPN for the batch's withdrawal as it stands (plus overrides), signed like NOWPayments signs it. */
  function ipn(batchId: string, overrides: Record<string, unknown> = {}): FakeDelivery {
    const w = batches.get(batchId)?.withdrawals[0];
    if (!w) throw new Error(`fake NOWPayments has no batch ${batchId}`);
    const payload = ipnPayload(w, overrides);
    return { body: Buffer.from(JSON.stringify(payload)), headers: { 'content-type': 'application/json', 'x-nowpayments-sig': sign(payload) } };
  }

  function deliver(delivery: FakeDelivery, url?: string) {
    const target = url ?? (JSON.parse(delivery.body.toString()) as { ipn_callback_url?: string }).ipn_callback_url;
    if (!target) throw new Error('this IPN has no ipn_callback_url: pass a url to deliver()');
    return sent.send(target, delivery);
  }

  function setStatus(batchId: string, status: NowpaymentsPayoutStatus, change: { hash?: string; error?: string } = {}) {
    const batch = batches.get(batchId);
    if (!batch) throw new Error(`fake NOWPayments has no batch ${batchId}`);
    for (const w of batch.withdrawals) {
      w.status = status;
      if (change.hash !== undefined) w.hash = change.hash;
      if (change.error !== undefined) w.error = change.error;
      w.updated_at = iso();
      if (w.ipn_callback_url) void deliver(ipn(batchId), w.ipn_callback_url);
    }
    return batch;
  }

  function authorize(request: FakeRequest): FakeReply | undefined {
    if (request.headers['x-api-key'] !== creds.apiKey) return npError(403, 'INVALID_API_KEY', 'Invalid api key');
    const header = request.headers.authorization;
    if (!header?.startsWith('Bearer ')) return npError(401, 'AUTH_REQUIRED', 'Authorization header is empty (Bearer JWTtoken is required)');
    const issued = tokens.get(header.slice('Bearer '.length));
    if (issued === undefined || clock.now().getTime() - issued >= JWT_LIFETIME_MS) return npError(401, 'AUTH_REQUIRED', 'jwt expired');
    return undefined;
  }

  function createPayout(body: unknown): FakeReply {
    if (!isRecord(body) || !Array.isArray(body.withdrawals) || body.withdrawals.length === 0) return invalid('"withdrawals" must contain at least 1 items');
    const made: Omit<Withdrawal, 'id' | 'batch_withdrawal_id'>[] = [];
    for (const [index, item] of body.withdrawals.entries()) {
      const at = `withdrawals[${index}]`;
      if (!isRecord(item)) return invalid(`"${at}" must be of type object`);
      const currency = typeof item.currency === 'string' ? item.currency.toLowerCase() : '';
      const asset = CURRENCY_ASSETS.get(currency);
      if (!asset) return invalid(`"${at}.currency" is not supported`);
      if (typeof item.address !== 'string' || !isValidWithdrawalAddress(asset, item.address)) return invalid(`"${at}.address" is invalid`);
      let amount: number;
      if (item.amount !== undefined) {
        if (item.fiat_amount !== undefined) return invalid(`"${at}" must have amount or fiat_amount, not both`);
        amount = Number(item.amount);
      } else {
        if (typeof item.fiat_amount !== 'number' || !(item.fiat_amount > 0)) return invalid(`"${at}.fiat_amount" must be a positive number`);
        if (item.fiat_currency !== 'usd') return invalid(`"${at}.fiat_currency" must be usd`);
        amount = item.fiat_amount / (rates[currency] ?? Number.NaN);
      }
      if (!(amount > 0)) return invalid(`"${at}.amount" must be a positive number`);
      if ((balances[currency] ?? 0) < amount) return npError(400, 'BAD_CREATE_WITHDRAWAL_REQUEST', 'Insufficient balance');
      const external = typeof item.unique_external_id === 'string' ? item.unique_external_id : null;
      if (external && options.uniqueExternalIds && [...batches.values()].some((b) => b.withdrawals.some((w) => w.unique_external_id === external))) {
        return invalid(`"${at}.unique_external_id" is already used`);
      }
      const callback = typeof item.ipn_callback_url === 'string' ? item.ipn_callback_url : typeof body.ipn_callback_url === 'string' ? body.ipn_callback_url : null;
      made.push({
        is_request_payouts: false,
        address: item.address,
        currency,
        amount: amount.toFixed(8).replace(/0+$/, '').replace(/\.$/, ''),
        fiat_amount: typeof item.fiat_amount === 'number' ? item.fiat_amount : null,
        fiat_currency: typeof item.fiat_currency === 'string' ? item.fiat_currency : null,
        ipn_callback_url: callback,
        status: options.createdStatus ?? 'WAITING',
        extra_id: typeof item.extra_id === 'string' ? item.extra_id : null,
        hash: null,
        error: null,
        payout_description: typeof body.payout_description === 'string' ? body.payout_description : null,
        unique_external_id: external,
        created_at: iso(),
        requested_at: null,
        updated_at: null,
      });
    }
    const batchId = String((nextId += 1));
    const withdrawals = made.map((w) => ({ ...w, id: String((nextId += 1)), batch_withdrawal_id: batchId }));
    for (const w of withdrawals) balances[w.currency] = (balances[w.currency] ?? 0) - Number(w.amount);
    batches.set(batchId, { id: batchId, createdAt: clock.now(), verified: false, attempts: 0, withdrawals });
    return { status: 200, json: { id: batchId, withdrawals } };
  }

  function verify(batch: Batch, body: unknown): FakeReply {
    age(batch);
    if (batch.verified) return invalid('Payout is already verified');
    if (batch.withdrawals.every((w) => w.status === 'REJECTED')) return invalid('Payout is rejected');
    if (batch.attempts >= MAX_VERIFY_ATTEMPTS) return invalid('Too many verification attempts');
    const code = isRecord(body) ? body.verification_code : undefined;
    if (typeof code !== 'string') return invalid('"verification_code" is required');
    batch.attempts += 1;
    const window = options.totpWindow ?? 0;
    if (totp.validate({ token: code, timestamp: clock.now().getTime(), window }) === null) return invalid('Invalid verification code');
    batch.verified = true;
    for (const w of batch.withdrawals) {
      w.requested_at = iso();
      w.updated_at = iso();
      if (w.status === 'CREATING') w.status = 'WAITING';
    }
    return { status: 200, text: 'OK' };
  }

  const ORDER_FIELDS: Record<string, (w: Withdrawal) => string | number> = {
    id: (w) => Number(w.id),
    batchId: (w) => Number(w.batch_withdrawal_id),
    dateCreated: (w) => w.created_at,
    dateRequested: (w) => w.requested_at ?? '',
    dateUpdated: (w) => w.updated_at ?? '',
    currency: (w) => w.currency,
    status: (w) => w.status,
  };

  function list(query: URLSearchParams): FakeReply {
    for (const batch of batches.values()) age(batch);
    let rows = [...batches.values()].flatMap((b) => b.withdrawals);
    const batchId = query.get('batch_id');
    if (batchId) rows = rows.filter((w) => w.batch_withdrawal_id === batchId);
    const status = query.get('status');
    if (status) rows = rows.filter((w) => w.status === status.toUpperCase());
    const from = query.get('date_from');
    if (from) rows = rows.filter((w) => w.created_at >= new Date(from).toISOString());
    const to = query.get('date_to');
    if (to) rows = rows.filter((w) => w.created_at <= new Date(to).toISOString());
    const key = ORDER_FIELDS[query.get('order_by') ?? 'id'] ?? ORDER_FIELDS.id!;
    const direction = query.get('order') === 'desc' ? -1 : 1;
    rows.sort((a, b) => (key(a) < key(b) ? -direction : key(a) > key(b) ? direction : 0));
    const limit = Math.min(Math.max(Number(query.get('limit') ?? 10) || 10, 1), 500);
    const page = Math.max(Number(query.get('page') ?? 0) || 0, 0);
    return { status: 200, json: { payouts: rows.slice(page * limit, page * limit + limit) } };
  }

  const server = await startProviderFake((request) => {
    const body = jsonBody(request);
    if (request.method === 'POST' && request.path === '/v1/auth') {
      if (!isRecord(body) || body.email !== creds.email || body.password !== creds.password) {
        return npError(401, 'INVALID_CREDENTIALS', 'Invalid email or password');
      }
      const token = ['eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9', randomBytes(24).toString('base64url'), randomBytes(32).toString('base64url')].join('.');
      tokens.set(token, clock.now().getTime());
      return { status: 200, json: { token } };
    }
    if (!request.path.startsWith('/v1/payout')) return npError(404, 'NOT_FOUND', 'Not found');
    const refused = authorize(request);
    if (refused) return refused;

    if (request.method === 'POST' && request.path === '/v1/payout') return createPayout(body);
    if (request.method === 'GET' && request.path === '/v1/payout') return list(request.query);
    const verifyPath = /^\/v1\/payout\/([^/]+)\/verify$/.exec(request.path);
    const readPath = /^\/v1\/payout\/([^/]+)$/.exec(request.path);
    const batch = batches.get(decodeURIComponent((verifyPath ?? readPath)?.[1] ?? ''));
    if (verifyPath && request.method === 'POST') return batch ? verify(batch, body) : npError(404, 'NOT_FOUND', 'Payout not found');
    if (readPath && request.method === 'GET') {
      if (!batch) return npError(404, 'NOT_FOUND', 'Payout not found');
      age(batch);
      return { status: 200, json: { id: batch.id, withdrawals: batch.withdrawals } };
    }
    return npError(404, 'NOT_FOUND', 'Not found');
  });

  return {
    ...server,
    apiKey: creds.apiKey,
    email: creds.email,
    password: creds.password,
    twoFactorSecret: creds.twoFactorSecret,
    ipnSecret: creds.ipnSecret,
    batches,
    balances,
    rates,
    deliveries: sent.deliveries,
    /** Every JWT issued so far stops working (as if 5 minutes had passed). */
    expireTokens() {
      for (const token of tokens.keys()) tokens.set(token, -JWT_LIFETIME_MS);
    },
    /** The batches whose withdrawal carries this unique_external_id. */
    batchesFor: (withdrawalId: string) => [...batches.values()].filter((b) => b.withdrawals.some((w) => w.unique_external_id === withdrawalId)),
    setStatus,
    /** Sent and confirmed: FINISHED with the transaction hash. */
    finish: (batchId: string, hash = randomBytes(32).toString('hex')) => setStatus(batchId, 'FINISHED', { hash }),
    failPayout: (batchId: string, error = 'Not enough funds on the network fee account') => setStatus(batchId, 'FAILED', { error }),
    ipn,
    deliver,
    sign,
    /** The code the account's authenticator shows at `at` (default: the fake's now). */
    totpAt: (at: Date = clock.now()) => totp.generate({ timestamp: at.getTime() }),
    settled: sent.settled,
  };
}
export type NowpaymentsFake = Awaited<ReturnType<typeof startNowpaymentsFake>>;

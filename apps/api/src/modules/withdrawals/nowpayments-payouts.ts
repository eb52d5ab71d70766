import { withdrawalAsset } from '@terrafund/contracts';
import { Secret, TOTP } from 'otpauth';
import { z } from 'zod';
import type { Clock } from '../../lib/clock';
import { nowpaymentsSignedPayload, ProviderHttpError, requestJson, wire } from '../payments';
import {
  payoutErrorFrom,
  PayoutProviderError,
  unreadableAnswer,
  type CreatePayoutOptions,
  type PayoutNotification,
  type PayoutProvider,
  type PayoutSnapshot,
} from './payout-provider';

/**
 * NOWPayments mass payouts: one batch of one withdrawal per withdrawal, created with the API key and a JWT from
 * `POST /v1/auth`, then verified with the TOTP of the account's 2FA secret. The withdrawal's id travels as
 * `unique_external_id`, which is how the payout list finds the batch again after a lost answer or a crash.
 *
 * The account must have payouts (custody) enabled, 2FA through an authenticator app (its base32 secret is
 * NOWPAYMENTS_2FA_SECRET), and the server's IP and, unless disabled, the members' addresses whitelisted.
 */
type NowpaymentsPayoutOptions = {
  /** Default https://api.nowpayments.io */
  apiUrl?: string;
  apiKey: string;
  email: string;
  password: string;
  /** The account's 2FA secret, base32, as the authenticator app was given it. */
  twoFactorSecret: string;
  ipnSecret: string;
  /** Where payout IPNs go: $PUBLIC_URL/api/payments/webhooks/nowpayments. */
  ipnCallbackUrl: string;
  clock: Clock;
  timeoutMs?: number;
  /** How far back find() reads the payout list; a withdrawal not found by then was recorded long ago. */
  lookupDays?: number;
};

const PROVIDER = 'nowpayments';
const DEFAULT_API_URL = 'https://api.nowpayments.io';
/** The JWT lives 5 minutes; we renew after 4 so none expires between reading the cache and its use. */
const TOKEN_REUSE_MS = 4 * 60_000;
const TOTP_PERIOD_S = 30;
const LIST_PAGE_SIZE = 100;
const LIST_MAX_PAGES = 20;

/** Not verified yet, or verified and waiting for NOWPayments to take it: verifying again is how to resume. */
const UNSENT_STATES: ReadonlySet<string> = new Set(['CREATING', 'WAITING']);
const KNOWN_STATES: ReadonlySet<string> = new Set(['CREATING', 'WAITING', 'PROCESSING', 'SENDING', 'FINISHED', 'FAILED', 'REJECTED']);

const id = z.union([z.string().min(1), z.number()]).transform(String);
const withdrawalSchema = z.object({
  id: id.nullish(),
  batch_withdrawal_id: id.nullish(),
  status: z.string().min(1),
  address: z.string().nullish(),
  currency: z.string().nullish(),
  amount: z.union([z.string(), z.number()]).transform(String).nullish(),
  hash: z.string().nullish(),
  error: z.union([z.string(), z.record(z.string(), z.unknown())]).nullish(),
  unique_external_id: z.union([z.string(), z.number()]).transform(String).nullish(),
});
type NowpaymentsWithdrawal = z.infer<typeof withdrawalSchema>;

/** A batch as create and `GET /v1/payout/{id}` answer it; a bare list of its withdrawals is read the same way. */
const batchSchema = z.union([
  z.object({ id: id.nullish(), withdrawals: z.array(withdrawalSchema).min(1) }),
  z.array(withdrawalSchema).min(1).transform((withdrawals) => ({ id: undefined, withdrawals })),
]);
const listSchema = z.union([
  z.object({ payouts: z.array(withdrawalSchema) }).transform((list) => list.payouts),
  z.object({ data: z.array(withdrawalSchema) }).transform((list) => list.data),
  z.array(withdrawalSchema),
]);

/** NOWPayments errors: `{status: false, statusCode, code, message}`. */
function nowpaymentsErrorCode(body: unknown): string | undefined {
  return wire.isPlainObject(body) && typeof body.code === 'string' ? body.code : undefined;
}

export function mapNowpaymentsWithdrawal(batchId: string, withdrawal: NowpaymentsWithdrawal): PayoutSnapshot {
  const state = withdrawal.status.toUpperCase();
  const error =
    typeof withdrawal.error === 'string' ? withdrawal.error : withdrawal.error ? JSON.stringify(withdrawal.error) : undefined;
  const base: PayoutSnapshot = {
    provider: PROVIDER,
    id: batchId,
    withdrawalId: withdrawal.unique_external_id ?? undefined,
    state,
    outcome: 'in_flight',
    address: withdrawal.address ?? undefined,
    cryptoAmount: withdrawal.amount ?? undefined,
    cryptoCurrency: withdrawal.currency ?? undefined,
    txHash: withdrawal.hash || undefined,
    providerWithdrawalId: withdrawal.id ?? undefined,
  };
  switch (state) {
    case 'FINISHED':
      return { ...base, outcome: 'completed' };
    case 'FAILED':
    case 'REJECTED':
      return { ...base, outcome: 'failed', error: error || `NOWPayments reported the payout ${state}` };
    default:
      // CREATING (not verified), WAITING, PROCESSING, SENDING, and anything newer: not final.
      return base;
  }
}

export function createNowpaymentsPayouts(options: NowpaymentsPayoutOptions): PayoutProvider {
  const apiUrl = (options.apiUrl ?? DEFAULT_API_URL).replace(/\/+$/, '');
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD_S, secret: Secret.fromBase32(options.twoFactorSecret.replace(/\s+/g, '')) });
  let token: { value: string; at: number } | undefined;
  let pendingAuth: Promise<string> | undefined;

  const raw = (method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: unknown) =>
    requestJson({ provider: 'NOWPayments', method, url: `${apiUrl}${path}`, headers, body, timeoutMs: options.timeoutMs });

  async function authenticate(): Promise<string> {
    pendingAuth ??= (async () => {
      try {
        const { body } = await raw('POST', '/v1/auth', {}, { email: options.email, password: options.password });
        const value = wire.isPlainObject(body) && typeof body.token === 'string' && body.token !== '' ? body.token : undefined;
        if (!value) throw unreadableAnswer(PROVIDER, 'auth answered without a token');
        token = { value, at: options.clock.now().getTime() };
        return value;
      } catch (error) {
        throw payoutErrorFrom(PROVIDER, error, nowpaymentsErrorCode);
      } finally {
        pendingAuth = undefined;
      }
    })();
    return pendingAuth;
  }

  async function bearer(): Promise<{ value: string; fresh: boolean }> {
    if (token && options.clock.now().getTime() - token.at < TOKEN_REUSE_MS) return { value: token.value, fresh: false };
    return { value: await authenticate(), fresh: true };
  }

  /** A call with the API key and the JWT; a 401 on a cached token (expired early, revoked) renews it once. */
  async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
    let jwt = await bearer();
    for (;;) {
      try {
        return (await raw(method, path, { 'x-api-key': options.apiKey, authorization: `Bearer ${jwt.value}` }, body)).body;
      } catch (error) {
        if (error instanceof ProviderHttpError && error.status === 401 && !jwt.fresh) {
          token = undefined;
          jwt = { value: await authenticate(), fresh: true };
          continue;
        }
        throw payoutErrorFrom(PROVIDER, error, nowpaymentsErrorCode);
      }
    }
  }

  const parseBatch = (body: unknown, batchId?: string): PayoutSnapshot => {
    const parsed = batchSchema.safeParse(body);
    if (!parsed.success) throw unreadableAnswer(PROVIDER, 'payout answer has no withdrawals with a status');
    const [withdrawal] = parsed.data.withdrawals;
    const idOfBatch = batchId ?? parsed.data.id ?? withdrawal?.batch_withdrawal_id ?? undefined;
    if (!withdrawal || !idOfBatch) throw unreadableAnswer(PROVIDER, 'payout answer has no batch id');
    return mapNowpaymentsWithdrawal(idOfBatch, withdrawal);
  };

  const get = async (batchId: string) => parseBatch(await call('GET', `/v1/payout/${encodeURIComponent(batchId)}`), batchId);

  /** The codes for now and, on a refusal, the neighbouring step our clock is closer to (drift either way). */
  function codes(): string[] {
    const now = options.clock.now().getTime();
    const intoStep = (now / 1000) % TOTP_PERIOD_S;
    const neighbour = intoStep < TOTP_PERIOD_S / 2 ? now - TOTP_PERIOD_S * 1000 : now + TOTP_PERIOD_S * 1000;
    return [totp.generate({ timestamp: now }), totp.generate({ timestamp: neighbour })];
  }

  /**
   * `POST /v1/payout/{batch}/verify`. NOWPayments answers a bare "OK", which requestJson reports as a 2xx without a
   * JSON object: that is success. A refused code is tried once more with the neighbouring step's code.
   */
  async function verify(batchId: string): Promise<void> {
    const attempts = codes();
    for (const [index, verification_code] of attempts.entries()) {
      try {
        await call('POST', `/v1/payout/${encodeURIComponent(batchId)}/verify`, { verification_code });
        return;
      } catch (error) {
        const cause = error instanceof PayoutProviderError ? error.cause : undefined;
        if (cause instanceof ProviderHttpError && cause.status !== undefined && cause.status < 300) return;
        const refused = error instanceof PayoutProviderError && !error.retryable;
        if (!refused || index === attempts.length - 1) throw error;
      }
    }
  }

  /** The newest payouts first, back `lookupDays`: NOWPayments' list has no filter on unique_external_id. */
  async function findWithdrawal(withdrawalId: string): Promise<NowpaymentsWithdrawal | undefined> {
    const since = new Date(options.clock.now().getTime() - (options.lookupDays ?? 30) * 86_400_000).toISOString().slice(0, 10);
    for (let page = 0; page < LIST_MAX_PAGES; page += 1) {
      const query = new URLSearchParams({ order_by: 'dateCreated', order: 'desc', date_from: since, limit: String(LIST_PAGE_SIZE), page: String(page) });
      let answer: unknown;
      try {
        answer = await call('GET', `/v1/payout?${query}`);
      } catch (error) {
        // The list answers an empty `payouts` for none, so a 404 is a server without the list: nothing to resume.
        // The create that follows fails on its own if the payout API is not there either.
        if (error instanceof PayoutProviderError && error.status === 404) return undefined;
        throw error;
      }
      const parsed = listSchema.safeParse(answer);
      if (!parsed.success) throw unreadableAnswer(PROVIDER, 'payout list answer has no payouts');
      const match = parsed.data
        .filter((w) => w.unique_external_id === withdrawalId && w.batch_withdrawal_id)
        .sort((a, b) => Number(a.batch_withdrawal_id) - Number(b.batch_withdrawal_id))[0];
      if (match) return match;
      if (parsed.data.length < LIST_PAGE_SIZE) return undefined;
    }
    return undefined;
  }

  async function find(withdrawalId: string): Promise<PayoutSnapshot | undefined> {
    const found = await findWithdrawal(withdrawalId);
    return found?.batch_withdrawal_id ? get(found.batch_withdrawal_id) : undefined;
  }

  /**
   * A batch that exists: verify it unless it is past waiting, then answer its state as NOWPayments reads it. A
   * refused verification (already verified by an attempt whose answer was lost, or a code refused twice) leaves
   * the batch as it is: its state tells, and an unverified batch is rejected after an hour, which fails it.
   */
  async function resume(snapshot: PayoutSnapshot, progress: CreatePayoutOptions['progress']): Promise<PayoutSnapshot> {
    if (!UNSENT_STATES.has(snapshot.state)) return snapshot;
    try {
      await verify(snapshot.id);
    } catch (error) {
      if (!(error instanceof PayoutProviderError) || error.retryable) throw error;
      const now = await get(snapshot.id);
      return UNSENT_STATES.has(now.state) ? { ...now, error: `verification refused: ${error.message}` } : now;
    }
    await progress?.({ step: 'batch_verified', batchId: snapshot.id });
    return get(snapshot.id);
  }

  return {
    name: PROVIDER,

    supports: () => true,

    find,
    get,

    async create(request, createOptions = {}) {
      const { known = {}, progress } = createOptions;
      const existing = known.id ? await get(known.id) : await find(request.withdrawalId);
      if (existing) {
        if (existing.withdrawalId !== undefined && existing.withdrawalId !== request.withdrawalId) {
          throw new PayoutProviderError(PROVIDER, `batch ${existing.id} belongs to withdrawal ${existing.withdrawalId}`, {
            retryable: false,
            code: 'not-ours',
          });
        }
        return known.verified ? existing : resume(existing, progress);
      }

      const created = await call('POST', '/v1/payout', {
        ipn_callback_url: options.ipnCallbackUrl,
        withdrawals: [
          {
            address: request.address,
            currency: withdrawalAsset(request.asset).nowpaymentsCurrency,
            fiat_amount: Number(wire.centsToDecimal(request.amountCents)),
            fiat_currency: 'usd',
            unique_external_id: request.withdrawalId,
            ipn_callback_url: options.ipnCallbackUrl,
          },
        ],
      });
      const snapshot = parseBatch(created);
      await progress?.({ step: 'batch_created', batchId: snapshot.id });
      return resume(snapshot, progress);
    },

    verifyNotification(rawBody, requestHeaders): PayoutNotification {
      const payload = nowpaymentsSignedPayload(rawBody, requestHeaders, options.ipnSecret);
      if (!payload) return { kind: 'invalid' };
      // A payout IPN is a withdrawal of a batch; a payment IPN has a payment_id instead.
      const batchId = wire.idString(payload.batch_withdrawal_id);
      if (batchId === undefined || payload.payment_id !== undefined) return { kind: 'other' };
      const state = typeof payload.status === 'string' ? payload.status.toUpperCase() : '';
      return {
        kind: 'payout',
        payoutRef: batchId,
        // No event id: one IPN per status step plus retries, so withdrawal and status identify a delivery.
        deliveryKey: `${wire.idString(payload.id) ?? batchId}:${state}`,
        type: state,
        state,
        known: KNOWN_STATES.has(state),
      };
    },
  };
}

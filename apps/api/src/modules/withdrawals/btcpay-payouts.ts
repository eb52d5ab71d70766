import { withdrawalAsset, type WithdrawalAssetId } from '@terrafund/contracts';
import { z } from 'zod';
import { btcpaySignedBody, requestJson, wire } from '../payments';
import {
  payoutErrorFrom,
  PayoutProviderError,
  unreadableAnswer,
  type PayoutNotification,
  type PayoutProvider,
  type PayoutSnapshot,
} from './payout-provider';

/**
 * BTCPay Server payouts through the Greenfield API: per withdrawal a USD pull payment for what the member
 * receives, and one approved payout in it that the store's payout processor sends from the hot wallet.
 *
 * The pull payment is the idempotency anchor: it is named after the withdrawal, and BTCPay refuses payouts that
 * add up to more than its amount (`overdraft`), so it can never pay twice. The payout carries
 * `metadata.withdrawalId`, which is how the store's payout list finds it again.
 *
 * The API key needs `btcpay.store.canmanagepullpayments` (create pull payments and approved payouts, list pull
 * payments) and `btcpay.store.canviewpayouts` (read payouts), on the store.
 */
type BtcpayPayoutOptions = {
  /** Base URL of the BTCPay server, e.g. https://btcpay.example.com */
  url: string;
  apiKey: string;
  storeId: string;
  /** The store webhook's secret (the same webhook as invoices: BTCPay-Sig). */
  webhookSecret: string;
  timeoutMs?: number;
};

const PROVIDER = 'btcpay';
const PULL_PAYMENT_NAME_MAX = 50;
const pullPaymentName = (withdrawalId: string) => `Withdrawal ${withdrawalId}`;

/** Payout webhook types (PayoutWebhookProvider): all three say "read the payout again". */
const PAYOUT_EVENT_TYPES: ReadonlySet<string> = new Set(['PayoutCreated', 'PayoutApproved', 'PayoutUpdated']);

const decimal = z.union([z.string(), z.number()]).transform(String);

const payoutSchema = z.object({
  id: z.string().min(1),
  pullPaymentId: z.string().nullish(),
  date: z.union([z.number(), z.string()]).nullish(),
  destination: z.string().nullish(),
  originalCurrency: z.string().nullish(),
  originalAmount: decimal.nullish(),
  payoutCurrency: z.string().nullish(),
  payoutAmount: decimal.nullish(),
  payoutMethodId: z.string().nullish(),
  state: z.string().min(1),
  paymentProof: z.record(z.string(), z.unknown()).nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
});
type BtcpayPayout = z.infer<typeof payoutSchema>;

const pullPaymentSchema = z.object({
  id: z.string().min(1),
  name: z.string().nullish(),
  archived: z.boolean().nullish(),
  startsAt: z.number().nullish(),
});
type BtcpayPullPayment = z.infer<typeof pullPaymentSchema>;

/** Greenfield errors: `{code, message}` for refusals, `[{path, message}]` for validation (422). */
function btcpayErrorCode(body: unknown): string | undefined {
  if (wire.isPlainObject(body) && typeof body.code === 'string') return body.code;
  if (Array.isArray(body) && body.length > 0) return 'validation';
  return undefined;
}

/** Another payout to this address is still in flight at BTCPay: wait for it, this withdrawal did nothing wrong. */
const RETRYABLE_REFUSALS: ReadonlySet<string> = new Set(['duplicate-destination']);

export function mapBtcpayPayout(payout: BtcpayPayout): PayoutSnapshot {
  const proof = payout.paymentProof ?? {};
  const txHash = wire.idString(proof.id) ?? wire.idString(proof.transactionId);
  const base: PayoutSnapshot = {
    provider: PROVIDER,
    id: payout.id,
    withdrawalId: wire.idString(payout.metadata?.withdrawalId),
    state: payout.state,
    outcome: 'in_flight',
    address: payout.destination ?? undefined,
    cryptoAmount: payout.payoutAmount ?? undefined,
    cryptoCurrency: payout.payoutCurrency ?? payout.payoutMethodId?.split('-')[0] ?? undefined,
    txHash,
    pullPaymentId: payout.pullPaymentId ?? undefined,
  };
  switch (payout.state) {
    case 'Completed':
      return { ...base, outcome: 'completed' };
    case 'Cancelled':
      return { ...base, outcome: 'failed', error: 'The payout was cancelled at BTCPay Server' };
    default:
      // AwaitingApproval, AwaitingPayment, InProgress (sent, waiting for confirmations), and any later state.
      return base;
  }
}

/** Earliest first; a payout still alive wins over cancelled ones, which only tell that it failed. */
function pickPayout(payouts: BtcpayPayout[]): BtcpayPayout | undefined {
  const byDate = [...payouts].sort((a, b) => Number(a.date ?? 0) - Number(b.date ?? 0) || a.id.localeCompare(b.id));
  return byDate.find((p) => p.state !== 'Cancelled') ?? byDate.at(-1);
}

export function createBtcpayPayouts(options: BtcpayPayoutOptions): PayoutProvider {
  const base = options.url.replace(/\/+$/, '');
  const store = `${base}/api/v1/stores/${encodeURIComponent(options.storeId)}`;
  const headers = { authorization: `token ${options.apiKey}` };

  async function call(method: 'GET' | 'POST', url: string, body?: unknown): Promise<unknown> {
    try {
      return (await requestJson({ provider: 'BTCPay', method, url, headers, body, timeoutMs: options.timeoutMs })).body;
    } catch (error) {
      throw payoutErrorFrom(PROVIDER, error, btcpayErrorCode);
    }
  }

  const parsePayout = (body: unknown): BtcpayPayout => {
    const parsed = payoutSchema.safeParse(body);
    if (!parsed.success) throw unreadableAnswer(PROVIDER, 'payout answer is missing id or state');
    return parsed.data;
  };
  const parseList = <T>(schema: z.ZodType<T>, body: unknown, what: string): T[] => {
    const parsed = z.array(schema).safeParse(body);
    if (!parsed.success) throw unreadableAnswer(PROVIDER, `${what} answer is not a list`);
    return parsed.data;
  };
  const ours = (withdrawalId: string) => (payout: BtcpayPayout) => wire.idString(payout.metadata?.withdrawalId) === withdrawalId;

  /**
   * A list read for the lookup. A 404 reads as an empty list: BTCPay answers 404 only for a store that is not
   * there, and then the create that follows fails on its own with the same 404.
   */
  async function list(url: string): Promise<unknown> {
    try {
      return await call('GET', url);
    } catch (error) {
      if (error instanceof PayoutProviderError && error.status === 404) return [];
      throw error;
    }
  }
  const storePayouts = async () => parseList(payoutSchema, await list(`${store}/payouts?includeCancelled=true`), 'payouts');
  const pullPaymentPayouts = async (pullPaymentId: string) =>
    parseList(
      payoutSchema,
      await call('GET', `${base}/api/v1/pull-payments/${encodeURIComponent(pullPaymentId)}/payouts?includeCancelled=true`),
      'pull payment payouts',
    );

  async function findPayout(withdrawalId: string): Promise<BtcpayPayout | undefined> {
    return pickPayout((await storePayouts()).filter(ours(withdrawalId)));
  }

  /** The live pull payment named for the withdrawal: the oldest one if a race made two. */
  async function findPullPayment(withdrawalId: string): Promise<BtcpayPullPayment | undefined> {
    const all = parseList(pullPaymentSchema, await list(`${store}/pull-payments?includeArchived=true`), 'pull payments');
    return all
      .filter((pp) => pp.name === pullPaymentName(withdrawalId) && !pp.archived)
      .sort((a, b) => (a.startsAt ?? 0) - (b.startsAt ?? 0) || a.id.localeCompare(b.id))[0];
  }

  const method = (asset: WithdrawalAssetId) => withdrawalAsset(asset).btcpayPayoutMethod;

  const provider: PayoutProvider = {
    name: PROVIDER,

    supports: (asset) => method(asset) !== undefined,

    async find(withdrawalId) {
      const payout = await findPayout(withdrawalId);
      return payout && mapBtcpayPayout(payout);
    },

    async get(id) {
      return mapBtcpayPayout(parsePayout(await call('GET', `${store}/payouts/${encodeURIComponent(id)}`)));
    },

    async create(request, createOptions = {}) {
      const payoutMethodId = method(request.asset);
      if (!payoutMethodId) {
        throw new PayoutProviderError(PROVIDER, `BTCPay Server does not send ${request.asset}`, { retryable: false, code: 'unsupported-asset' });
      }
      const name = pullPaymentName(request.withdrawalId);
      if (name.length > PULL_PAYMENT_NAME_MAX) throw new Error(`withdrawal id too long for a BTCPay pull payment name: ${request.withdrawalId}`);
      const amount = wire.centsToDecimal(request.amountCents);
      const { known = {}, progress } = createOptions;

      if (known.id) {
        const payout = parsePayout(await call('GET', `${store}/payouts/${encodeURIComponent(known.id)}`));
        if (ours(request.withdrawalId)(payout)) return mapBtcpayPayout(payout);
      }
      const existing = known.pullPaymentId
        ? pickPayout((await pullPaymentPayouts(known.pullPaymentId)).filter(ours(request.withdrawalId)))
        : await findPayout(request.withdrawalId);
      if (existing) return mapBtcpayPayout(existing);

      let pullPaymentId = known.pullPaymentId ?? (await findPullPayment(request.withdrawalId))?.id;
      if (!pullPaymentId) {
        const created = pullPaymentSchema.safeParse(
          await call('POST', `${store}/pull-payments`, {
            name,
            description: `Terrafund withdrawal ${request.withdrawalId}`,
            amount,
            currency: 'USD',
            payoutMethods: [payoutMethodId],
            autoApproveClaims: false,
          }),
        );
        if (!created.success) throw unreadableAnswer(PROVIDER, 'create pull payment answered without an id');
        pullPaymentId = created.data.id;
        await progress?.({ step: 'pull_payment_created', pullPaymentId });
      }

      try {
        return mapBtcpayPayout(
          parsePayout(
            await call('POST', `${store}/payouts`, {
              pullPaymentId,
              destination: request.address,
              amount,
              payoutMethodId,
              approved: true,
              metadata: { withdrawalId: request.withdrawalId },
            }),
          ),
        );
      } catch (error) {
        if (!(error instanceof PayoutProviderError) || error.retryable) throw error;
        // Refused because a payout already exists (an earlier attempt whose answer was lost, a concurrent one):
        // the pull payment's limit or the address guard caught it. Answer that payout instead.
        const already = await findPayout(request.withdrawalId);
        if (already) return mapBtcpayPayout(already);
        if (RETRYABLE_REFUSALS.has(error.code)) {
          throw new PayoutProviderError(PROVIDER, `${error.message}: another payout to this address is still in flight`, {
            retryable: true,
            code: error.code,
            status: error.status,
            cause: error,
          });
        }
        throw error;
      }
    },

    verifyNotification(rawBody, requestHeaders): PayoutNotification {
      const body = btcpaySignedBody(rawBody, requestHeaders, 'BTCPay-Sig', options.webhookSecret);
      if (!body) return { kind: 'invalid' };
      const type = typeof body.type === 'string' ? body.type : '';
      const payoutId = wire.idString(body.payoutId);
      if (!type.startsWith('Payout') || payoutId === undefined) return { kind: 'other' };
      const deliveryId = wire.idString(body.originalDeliveryId) ?? wire.idString(body.deliveryId);
      return {
        kind: 'payout',
        payoutRef: payoutId,
        // Retries carry the first delivery's id in originalDeliveryId: one key for all of them.
        deliveryKey: deliveryId ?? `${type}:${payoutId}:${wire.hmacHex('sha256', options.webhookSecret, rawBody)}`,
        type,
        state: typeof body.payoutState === 'string' ? body.payoutState : undefined,
        known: PAYOUT_EVENT_TYPES.has(type),
      };
    },
  };
  return provider;
}

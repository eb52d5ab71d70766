import { createHmac, randomBytes } from 'node:crypto';
import { isValidWithdrawalAddress } from '@terrafund/contracts';
import {
  base58Id,
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
 * BTCPay Server's Greenfield pull payments and payouts, as the swagger (swagger.template.pull-payments.json) and
 * GreenfieldPullPaymentController describe them: store-scoped paths, `Authorization: token {apiKey}` with the
 * permissions each endpoint demands, 422 `[{path, message}]` for invalid input and 400 `{code, message}` for
 * refused claims (overdraft, duplicate-destination, amount-too-low, archived, payment-method-not-supported).
 * Payouts move through AwaitingApproval → AwaitingPayment → InProgress → Completed (or Cancelled) when the test
 * says so, as the store's payout processor would; each move is a signed store webhook when `webhookUrl` is set.
 *
 *     const btcpay = await startBtcpayFake({ webhookUrl: `${appUrl}/api/payments/webhooks/btcpay` });
 *     // configure the app with btcpay.url, btcpay.apiKey, btcpay.storeId, btcpay.webhookSecret
 *     btcpay.process(payoutId);          // the processor broadcasts: InProgress with a txid
 *     btcpay.complete(payoutId);         // confirmed: Completed
 *     await btcpay.settled();            // every webhook sent so far has been answered
 */
export const BTCPAY_FAKE_DEFAULTS = {
  apiKey: 'fake-btcpay-payouts-api-key',
  storeId: 'FakePayoutStore11111111111111111111111111111',
  webhookSecret: 'fake-btcpay-payouts-webhook-secret',
};

/** Greenfield permissions, with the ones each implies (BTCPayServer.Client/Permissions.cs). */
const IMPLIES: Record<string, string[]> = {
  'btcpay.store.canmodifystoresettings': [
    'btcpay.store.canmanagepullpayments',
    'btcpay.store.canmanagepayouts',
    'btcpay.store.canviewstoresettings',
  ],
  'btcpay.store.canmanagepullpayments': ['btcpay.store.cancreatepullpayments', 'btcpay.store.canarchivepullpayments'],
  'btcpay.store.cancreatepullpayments': ['btcpay.store.cancreatenonapprovedpullpayments'],
  'btcpay.store.cancreatenonapprovedpullpayments': ['btcpay.store.canviewpullpayments'],
  'btcpay.store.canmanagepayouts': ['btcpay.store.canviewpayouts'],
  'btcpay.store.canviewstoresettings': ['btcpay.store.canviewpullpayments', 'btcpay.store.canviewpayouts'],
};
const grants = (held: Iterable<string>, wanted: string): boolean =>
  [...held].some((p) => p === 'unrestricted' || p === wanted || grants(IMPLIES[p] ?? [], wanted));

export type BtcpayPayoutState = 'AwaitingApproval' | 'AwaitingPayment' | 'InProgress' | 'Completed' | 'Cancelled';

type PullPayment = {
  id: string;
  name: string | null;
  description: string | null;
  currency: string;
  amount: string;
  period: null;
  BOLT11Expiration: string;
  autoApproveClaims: boolean;
  archived: boolean;
  viewLink: string;
  startsAt: number;
  expiresAt: number | null;
  payoutMethods: string[];
};

type Payout = {
  id: string;
  revision: number;
  pullPaymentId: string | null;
  date: number;
  destination: string;
  originalCurrency: string;
  originalAmount: string;
  payoutCurrency: string;
  payoutAmount: string | null;
  payoutMethodId: string;
  state: BtcpayPayoutState;
  paymentProof: Record<string, unknown> | null;
  metadata: Record<string, unknown>;
};

const CLAIM_MESSAGES = {
  'duplicate-destination': 'This address is already used for another payout',
  archived: 'This pull payment has been archived',
  overdraft: "The payout amount overdraft the pull payment's limit",
  'amount-too-low': 'The requested payout amount is too low',
  'payment-method-not-supported': 'This payment method is not supported by the pull payment',
} as const;

const apiError = (status: number, code: string, message: string): FakeReply => ({ status, json: { code, message } });
const validation = (path: string, message: string): FakeReply => ({ status: 422, json: [{ path, message }] });
const notFound = (code: 'payout-not-found' | 'pullpayment-not-found') =>
  apiError(404, code, code === 'payout-not-found' ? 'The payout was not found' : 'The pull payment was not found');

/** A decimal string (or number) as BTCPay's decimal binder reads it; NaN for anything else. */
const decimalOf = (value: unknown) => (typeof value === 'string' || typeof value === 'number') && /^\d+(\.\d+)?$/.test(String(value)) ? Number(value) : Number.NaN;

type Options = {
  apiKey?: string;
  storeId?: string;
  webhookSecret?: string;
  /** The store webhook's address; without it nothing is sent (tests call webhook() and deliver() themselves). */
  webhookUrl?: string;
  /** What the API key may do. Default: what the README asks the operator to grant. */
  permissions?: string[];
  /** USD per coin, for payoutAmount on approval. */
  rates?: Record<string, number>;
  /** Payout methods the store has a wallet for. */
  payoutMethods?: string[];
  /** Claims below this many USD are refused `amount-too-low`. */
  minimumClaimUsd?: number;
  clock?: FakeClock;
};

export async function startBtcpayFake(options: Options = {}) {
  const apiKey = options.apiKey ?? BTCPAY_FAKE_DEFAULTS.apiKey;
  const storeId = options.storeId ?? BTCPAY_FAKE_DEFAULTS.storeId;
  const webhookSecret = options.webhookSecret ?? BTCPAY_FAKE_DEFAULTS.webhookSecret;
  const clock = options.clock ?? realClock;
  const permissions = new Set(options.permissions ?? ['btcpay.store.canmanagepullpayments', 'btcpay.store.canviewpayouts']);
  const rates: Record<string, number> = { BTC: 100_000, LTC: 100, ...options.rates };
  const storeMethods = new Set(options.payoutMethods ?? ['BTC-CHAIN', 'LTC-CHAIN']);
  const pullPayments = new Map<string, PullPayment>();
  const payouts = new Map<string, Payout>();
  const sent = deliveryLog();
  const state = { webhookUrl: options.webhookUrl };
  const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);
  let baseUrl = '';

  const sign = (body: Buffer | string) => `sha256=${createHmac('sha256', webhookSecret).update(body).digest('hex')}`;

  /** A store webhook delivery as WebhookSender.cs makes it: pretty-printed JSON, BTCPay-Sig over those bytes. */
  function webhook(payoutId: string, type: string, overrides: Record<string, unknown> = {}): FakeDelivery {
    const payout = payouts.get(payoutId);
    const deliveryId = base58Id(22);
    const body = Buffer.from(
      JSON.stringify(
        {
          deliveryId,
          webhookId: 'FakeWebhookPayouts1',
          originalDeliveryId: deliveryId,
          isRedelivery: false,
          type,
          timestamp: nowSeconds(),
          storeId,
          payoutId,
          pullPaymentId: payout?.pullPaymentId ?? null,
          payoutState: payout?.state ?? 'AwaitingApproval',
          ...overrides,
        },
        null,
        2,
      ),
    );
    return { body, headers: { 'content-type': 'application/json', 'btcpay-sig': sign(body) } };
  }

  /** The same event again as BTCPay retries it: a new deliveryId, the first one's in originalDeliveryId. */
  function redelivery(delivery: FakeDelivery): FakeDelivery {
    const first = JSON.parse(delivery.body.toString()) as Record<string, unknown>;
    const body = Buffer.from(JSON.stringify({ ...first, deliveryId: base58Id(22), isRedelivery: true }, null, 2));
    return { body, headers: { 'content-type': 'application/json', 'btcpay-sig': sign(body) } };
  }

  function deliver(delivery: FakeDelivery, url = state.webhookUrl) {
    if (!url) throw new Error('fake BTCPay has no webhookUrl: pass one to deliver() or set fake.webhookUrl');
    return sent.send(url, delivery);
  }

  function emit(payout: Payout, type: 'PayoutCreated' | 'PayoutApproved' | 'PayoutUpdated') {
    if (state.webhookUrl) void deliver(webhook(payout.id, type));
  }

  function approve(payout: Payout) {
    const rate = rates[payout.payoutCurrency];
    if (!rate) throw new Error(`fake BTCPay has no rate for ${payout.payoutCurrency}`);
    payout.payoutAmount = (Number(payout.originalAmount) / rate).toFixed(8);
    payout.state = 'AwaitingPayment';
    payout.revision += 1;
  }

  function move(payoutId: string, next: BtcpayPayoutState, txid?: string) {
    const payout = payouts.get(payoutId);
    if (!payout) throw new Error(`fake BTCPay has no payout ${payoutId}`);
    if (next === 'AwaitingPayment' && payout.state === 'AwaitingApproval') {
      approve(payout);
      emit(payout, 'PayoutApproved');
      return payout;
    }
    if (next === 'InProgress' || (next === 'Completed' && !payout.paymentProof)) {
      const id = txid ?? randomBytes(32).toString('hex');
      const explorer = payout.payoutCurrency === 'LTC' ? 'https://litecoinspace.org/tx/' : 'https://mempool.space/tx/';
      payout.paymentProof = { proofType: 'PayoutTransactionOnChainBlob', id, transactionId: id, candidates: [id], link: `${explorer}${id}` };
    }
    payout.state = next;
    emit(payout, 'PayoutUpdated');
    return payout;
  }

  const need = (request: FakeRequest, permission: string): FakeReply | undefined => {
    if (request.headers.authorization !== `token ${apiKey}`) {
      return apiError(401, 'unauthenticated', 'Authentication is required for accessing this endpoint');
    }
    if (!grants(permissions, permission)) {
      return {
        status: 403,
        json: {
          code: 'missing-permission',
          message: `Insufficient API Permissions. Please use an API key with permission "${permission}". You can create an API key in your account's settings / Api Keys.`,
          missingPermission: permission,
        },
      };
    }
    return undefined;
  };

  const includeFlag = (request: FakeRequest, name: string) => request.query.get(name)?.toLowerCase() === 'true';
  const alive = (p: Payout) => p.state !== 'Cancelled';

  function createPullPayment(body: unknown, request: FakeRequest): FakeReply {
    if (!isRecord(body)) return validation('', 'Missing body');
    if (body.autoApproveClaims === true) {
      const refused = need(request, 'btcpay.store.cancreatepullpayments');
      if (refused) return refused;
    }
    const errors: { path: string; message: string }[] = [];
    const amount = decimalOf(body.amount);
    if (!(amount > 0)) errors.push({ path: 'amount', message: 'The amount should more than 0.' });
    if (typeof body.name === 'string' && body.name.length > 50) errors.push({ path: 'name', message: 'The name should be maximum 50 characters.' });
    const currency = typeof body.currency === 'string' ? body.currency.trim().toUpperCase() : undefined;
    if (!currency) errors.push({ path: 'currency', message: 'This field is required' });
    else if (!['USD', 'EUR', 'BTC', 'LTC', 'SATS'].includes(currency)) errors.push({ path: 'currency', message: 'Invalid currency' });
    if (!Array.isArray(body.payoutMethods)) errors.push({ path: 'payoutMethods', message: 'This field is required' });
    else body.payoutMethods.forEach((m, i) => {
      if (typeof m !== 'string' || !storeMethods.has(m)) errors.push({ path: `payoutMethods[${i}]`, message: 'Invalid or unsupported payment method' });
    });
    if (errors.length > 0) return { status: 422, json: errors };
    const id = base58Id();
    const pp: PullPayment = {
      id,
      name: typeof body.name === 'string' ? body.name : null,
      description: typeof body.description === 'string' ? body.description : null,
      currency: currency ?? 'USD',
      amount: String(body.amount),
      period: null,
      BOLT11Expiration: '30',
      autoApproveClaims: body.autoApproveClaims === true,
      archived: false,
      viewLink: `${baseUrl}/pull-payments/${id}`,
      startsAt: nowSeconds(),
      expiresAt: null,
      payoutMethods: body.payoutMethods as string[],
    };
    pullPayments.set(id, pp);
    const { payoutMethods: _methods, ...data } = pp;
    return { status: 200, json: data };
  }

  function createPayout(body: unknown, request: FakeRequest): FakeReply {
    if (isRecord(body) && body.approved === true) {
      const refused = need(request, 'btcpay.store.cancreatepullpayments');
      if (refused) return refused;
    }
    if (!isRecord(body) || typeof body.payoutMethodId !== 'string' || !/^[A-Z]+-(CHAIN|LN)$/.test(body.payoutMethodId)) {
      return validation('payoutMethodId', 'Invalid payment method');
    }
    const method = body.payoutMethodId;
    const coin = method.split('-')[0] ?? '';
    let pp: PullPayment | undefined;
    if (body.pullPaymentId !== undefined && body.pullPaymentId !== null) {
      pp = typeof body.pullPaymentId === 'string' ? pullPayments.get(body.pullPaymentId) : undefined;
      if (!pp) return notFound('pullpayment-not-found');
    }
    const destination = typeof body.destination === 'string' ? body.destination.trim() : '';
    const asset = coin === 'BTC' ? 'BTC' : coin === 'LTC' ? 'LTC' : undefined;
    if (!asset || !isValidWithdrawalAddress(asset, destination)) {
      return validation('destination', 'The destination is invalid for the payment specified');
    }
    const amount = decimalOf(body.amount);
    if (body.amount !== undefined && !(amount > 0)) return validation('amount', 'Amount too small (should be at least 0)');
    if (pp?.archived) return apiError(400, 'archived', CLAIM_MESSAGES.archived);
    if (pp && !pp.payoutMethods.includes(method)) return apiError(400, 'payment-method-not-supported', CLAIM_MESSAGES['payment-method-not-supported']);
    if ([...payouts.values()].some((p) => p.destination === destination && p.state !== 'Completed' && p.state !== 'Cancelled')) {
      return apiError(400, 'duplicate-destination', CLAIM_MESSAGES['duplicate-destination']);
    }
    const usd = pp ? (body.amount === undefined ? Number(pp.amount) : amount) : amount;
    if (pp) {
      const claimed = [...payouts.values()].filter((p) => p.pullPaymentId === pp.id && alive(p)).reduce((sum, p) => sum + Number(p.originalAmount), 0);
      if (claimed + usd > Number(pp.amount) + 1e-9) return apiError(400, 'overdraft', CLAIM_MESSAGES.overdraft);
    }
    if (usd < (options.minimumClaimUsd ?? 0)) return apiError(400, 'amount-too-low', CLAIM_MESSAGES['amount-too-low']);
    const payout: Payout = {
      id: base58Id(),
      revision: 0,
      pullPaymentId: pp?.id ?? null,
      date: nowSeconds(),
      destination,
      originalCurrency: pp?.currency ?? coin,
      originalAmount: pp ? (body.amount === undefined ? pp.amount : String(body.amount)) : String(body.amount),
      payoutCurrency: coin,
      payoutAmount: null,
      payoutMethodId: method,
      state: 'AwaitingApproval',
      paymentProof: null,
      metadata: isRecord(body.metadata) ? body.metadata : {},
    };
    payouts.set(payout.id, payout);
    emit(payout, 'PayoutCreated');
    if (body.approved === true || pp?.autoApproveClaims) {
      approve(payout);
      emit(payout, 'PayoutApproved');
    }
    return { status: 200, json: payout };
  }

  const server = await startProviderFake((request) => {
    const storePath = `/api/v1/stores/${storeId}`;
    const body = jsonBody(request);
    const { method, path } = request;

    const publicPayouts = /^\/api\/v1\/pull-payments\/([^/]+)\/payouts$/.exec(path);
    if (method === 'GET' && publicPayouts) {
      const pp = pullPayments.get(decodeURIComponent(publicPayouts[1] ?? ''));
      if (!pp) return notFound('pullpayment-not-found');
      const list = [...payouts.values()].filter((p) => p.pullPaymentId === pp.id && (includeFlag(request, 'includeCancelled') || alive(p)));
      return { status: 200, json: list };
    }
    const publicPp = /^\/api\/v1\/pull-payments\/([^/]+)$/.exec(path);
    if (method === 'GET' && publicPp) {
      const pp = pullPayments.get(decodeURIComponent(publicPp[1] ?? ''));
      if (!pp) return notFound('pullpayment-not-found');
      const { payoutMethods: _methods, ...data } = pp;
      return { status: 200, json: data };
    }

    if (!path.startsWith('/api/v1/stores/')) return { status: 404, text: 'Not Found' };
    if (!path.startsWith(`${storePath}/`)) {
      return need(request, 'btcpay.store.canviewstoresettings') ?? apiError(403, 'missing-permission', 'This API key is not for this store');
    }
    const rest = path.slice(storePath.length);

    if (rest === '/pull-payments' && method === 'GET') {
      const refused = need(request, 'btcpay.store.canviewpullpayments');
      if (refused) return refused;
      const list = [...pullPayments.values()]
        .filter((pp) => includeFlag(request, 'includeArchived') || !pp.archived)
        .sort((a, b) => b.startsAt - a.startsAt)
        .map(({ payoutMethods: _methods, ...data }) => data);
      return { status: 200, json: list };
    }
    if (rest === '/pull-payments' && method === 'POST') {
      return need(request, 'btcpay.store.cancreatenonapprovedpullpayments') ?? createPullPayment(body, request);
    }
    const archive = /^\/pull-payments\/([^/]+)$/.exec(rest);
    if (archive && method === 'DELETE') {
      const refused = need(request, 'btcpay.store.canarchivepullpayments');
      if (refused) return refused;
      const pp = pullPayments.get(decodeURIComponent(archive[1] ?? ''));
      if (!pp) return notFound('pullpayment-not-found');
      pp.archived = true;
      for (const p of payouts.values()) if (p.pullPaymentId === pp.id && (p.state === 'AwaitingApproval' || p.state === 'AwaitingPayment')) move(p.id, 'Cancelled');
      return { status: 200, text: '' };
    }
    if (rest === '/payouts' && method === 'GET') {
      const refused = need(request, 'btcpay.store.canviewpayouts');
      if (refused) return refused;
      return { status: 200, json: [...payouts.values()].filter((p) => includeFlag(request, 'includeCancelled') || alive(p)) };
    }
    if (rest === '/payouts' && method === 'POST') {
      return need(request, 'btcpay.store.cancreatenonapprovedpullpayments') ?? createPayout(body, request);
    }
    const one = /^\/payouts\/([^/]+)$/.exec(rest);
    if (one) {
      const payout = payouts.get(decodeURIComponent(one[1] ?? ''));
      if (method === 'GET') return need(request, 'btcpay.store.canviewpayouts') ?? (payout ? { status: 200, json: payout } : notFound('payout-not-found'));
      const refused = need(request, 'btcpay.store.canmanagepayouts');
      if (refused) return refused;
      if (!payout) return notFound('payout-not-found');
      if (method === 'DELETE') {
        if (payout.state === 'Completed') return apiError(400, 'invalid-state', 'The payout is not in a state that can be cancelled');
        move(payout.id, 'Cancelled');
        return { status: 200, text: '' };
      }
      if (method === 'POST') {
        if (!isRecord(body) || typeof body.revision !== 'number') return validation('revision', 'The `revision` property is required');
        if (body.revision !== payout.revision) return apiError(400, 'old-revision', 'The revision number is too old');
        if (payout.state !== 'AwaitingApproval') return apiError(400, 'invalid-state', 'The payout is not in a state that can be approved');
        move(payout.id, 'AwaitingPayment');
        return { status: 200, json: payout };
      }
    }
    return { status: 404, text: 'Not Found' };
  });
  baseUrl = server.url;

  return {
    ...server,
    apiKey,
    storeId,
    webhookSecret,
    pullPayments,
    payouts,
    permissions,
    rates,
    /** Every webhook sent, with the status our server answered. */
    deliveries: sent.deliveries,
    get webhookUrl() {
      return state.webhookUrl;
    },
    set webhookUrl(url: string | undefined) {
      state.webhookUrl = url;
    },
    /** The payout processor broadcasts the payout: InProgress with the transaction in paymentProof. */
    process: (payoutId: string, txid?: string) => move(payoutId, 'InProgress', txid),
    /** Confirmed on the chain: Completed (a proof is made if the payout had none). */
    complete: (payoutId: string, txid?: string) => move(payoutId, 'Completed', txid),
    /** Cancelled by the store (or because the pull payment was archived). */
    cancel: (payoutId: string) => move(payoutId, 'Cancelled'),
    /** Approves a payout still awaiting approval. */
    approvePayout: (payoutId: string) => move(payoutId, 'AwaitingPayment'),
    /** The payouts whose metadata names this withdrawal. */
    payoutsFor: (withdrawalId: string) => [...payouts.values()].filter((p) => p.metadata.withdrawalId === withdrawalId),
    webhook,
    redelivery,
    deliver,
    sign,
    /** Resolves when every webhook sent so far has been answered. */
    settled: sent.settled,
  };
}
export type BtcpayFake = Awaited<ReturnType<typeof startBtcpayFake>>;

import type { WithdrawalAssetId } from '@terrafund/contracts';
import { ProviderHttpError, type NotificationHeaders } from '../payments';

/**
 * What the withdrawal flow needs from a payout provider (issue "Money out for real"): BTCPay Server (Greenfield
 * pull payments and payouts) or NOWPayments (mass payouts). The flow decides when to pay and records what
 * happened; an adapter only talks to its provider.
 *
 * Exactly one payout per withdrawal rests on three things: the withdrawal's id is written at the provider
 * (BTCPay payout metadata and pull payment name, NOWPayments `unique_external_id`), `create` looks it up there
 * before creating anything and resumes what it finds, and the flow never runs two `create` for one withdrawal
 * at once (a row lock or lease around the call).
 */
export type PayoutProviderName = 'btcpay' | 'nowpayments' | 'sandbox';

export type PayoutRequest = {
  /** Our withdrawal's id: the provider-side key. At most 39 characters (BTCPay's pull payment name holds it). */
  withdrawalId: string;
  asset: WithdrawalAssetId;
  /** The member's address, already checked by isValidWithdrawalAddress. */
  address: string;
  /** The USD the member receives (the amount less the fee), integer cents. */
  amountCents: number;
};

export type PayoutOutcome = 'in_flight' | 'completed' | 'failed';

export type PayoutSnapshot = {
  provider: PayoutProviderName;
  /** Our handle at the provider, what get() takes: BTCPay's payout id, NOWPayments' batch id. */
  id: string;
  /** The withdrawal the provider says this payout is for (BTCPay metadata, NOWPayments unique_external_id). */
  withdrawalId?: string;
  /** The provider's own word: BTCPay AwaitingPayment…, NOWPayments WAITING… */
  state: string;
  outcome: PayoutOutcome;
  address?: string;
  /** What leaves in the coin, as the provider's decimal string (BTCPay sets it once approved). */
  cryptoAmount?: string;
  cryptoCurrency?: string;
  /** The transaction on the chain, once the provider reports it (BTCPay's paymentProof.id, NOWPayments' hash). */
  txHash?: string;
  /** Why it failed, as the provider put it. */
  error?: string;
  /** BTCPay: the pull payment the payout belongs to. */
  pullPaymentId?: string;
  /** NOWPayments: the withdrawal's own id inside the batch. */
  providerWithdrawalId?: string;
};

/**
 * Intermediate ids `create` reports before its next call, so the caller can record them: a crash between two
 * calls is then resumed from them (also without them: `create` finds them at the provider by the withdrawal id).
 */
export type PayoutStep =
  | { step: 'pull_payment_created'; pullPaymentId: string }
  | { step: 'batch_created'; batchId: string }
  | { step: 'batch_verified'; batchId: string };

export type CreatePayoutOptions = {
  /** Ids recorded from an earlier attempt (PayoutStep or a snapshot): saves the provider-wide lookup. */
  known?: {
    id?: string;
    pullPaymentId?: string;
    /** NOWPayments: `batch_verified` was recorded, so the batch is not verified again (each try counts, 10 at most). */
    verified?: boolean;
  };
  /** Awaited after each step; a throw stops `create` there (the next attempt resumes). */
  progress?: (step: PayoutStep) => Promise<void>;
};

/**
 * A notification on the shared webhook address. `invalid`: no or wrong signature (answer 4xx). `other`: signed, but
 * not about a payout (an invoice or a payment: the deposit code's). `payout`: trigger a get(payoutRef) before acting,
 * never act on the body; `deliveryKey` is the same for repeats of one event.
 */
export type PayoutNotification =
  | { kind: 'invalid' }
  | { kind: 'other' }
  | { kind: 'payout'; payoutRef: string; deliveryKey: string; type: string; state?: string; known: boolean };

export interface PayoutProvider {
  readonly name: PayoutProviderName;
  supports(asset: WithdrawalAssetId): boolean;
  /** The payout made for this withdrawal, looked up at the provider; undefined when there is none. */
  find(withdrawalId: string): Promise<PayoutSnapshot | undefined>;
  /**
   * Pays the request, or resumes what an earlier attempt left at the provider (a pull payment without its payout,
   * an unverified batch, a payout whose answer was lost). Never makes a second payout for a withdrawal id.
   * Throws PayoutProviderError.
   */
  create(request: PayoutRequest, options?: CreatePayoutOptions): Promise<PayoutSnapshot>;
  get(id: string): Promise<PayoutSnapshot>;
  /** Checks the signature on the raw bytes and tells payout events from the rest. */
  verifyNotification(rawBody: Buffer, headers: NotificationHeaders): PayoutNotification;
}

/**
 * A provider call that failed. `retryable`: try again later, the withdrawal stays as it is (network, timeout,
 * 5xx, 429, an answer we could not read, credentials the operator must fix). Otherwise the provider refused this
 * payout for good (BTCPay `amount-too-low`, NOWPayments validation errors…) and the flow may fail the withdrawal.
 */
export class PayoutProviderError extends Error {
  readonly provider: PayoutProviderName;
  readonly retryable: boolean;
  /** The provider's error code (`overdraft`, `INVALID_REQUEST_PARAMS`…) or ours (`network`, `unauthorized`…). */
  readonly code: string;
  readonly status?: number;

  constructor(
    provider: PayoutProviderName,
    message: string,
    details: { retryable: boolean; code: string; status?: number; cause?: unknown },
  ) {
    super(message, { cause: details.cause });
    this.name = 'PayoutProviderError';
    this.provider = provider;
    this.retryable = details.retryable;
    this.code = details.code;
    this.status = details.status;
  }
}

/** The statuses after which asking again may work: the provider was busy, down, or rate limiting us. */
const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([408, 425, 429]);

/**
 * ProviderHttpError → PayoutProviderError. `codeOf` reads the provider's error code from its error body.
 * 401/403 are credentials or permissions: retryable, because the withdrawal did nothing wrong and the operator
 * fixes the settings; the code says so.
 */
export function payoutErrorFrom(provider: PayoutProviderName, error: unknown, codeOf: (body: unknown) => string | undefined): PayoutProviderError {
  if (error instanceof PayoutProviderError) return error;
  if (!(error instanceof ProviderHttpError)) {
    return new PayoutProviderError(provider, `${provider}: ${error instanceof Error ? error.message : String(error)}`, {
      retryable: true,
      code: 'unexpected',
      cause: error,
    });
  }
  const { status } = error;
  if (status === undefined) {
    const code = /timed out/.test(error.message) ? 'timeout' : 'network';
    return new PayoutProviderError(provider, error.message, { retryable: true, code, cause: error });
  }
  const providerCode = codeOf(error.body);
  if (status === 401 || status === 403) {
    return new PayoutProviderError(provider, error.message, { retryable: true, code: providerCode ?? 'unauthorized', status, cause: error });
  }
  if (status >= 500 || TRANSIENT_STATUSES.has(status)) {
    return new PayoutProviderError(provider, error.message, { retryable: true, code: providerCode ?? `http-${status}`, status, cause: error });
  }
  if (status < 400) {
    // A 2xx we could not read: the request may have been applied, so the next attempt must look before creating.
    return new PayoutProviderError(provider, error.message, { retryable: true, code: 'unreadable-answer', status, cause: error });
  }
  return new PayoutProviderError(provider, error.message, { retryable: false, code: providerCode ?? `http-${status}`, status, cause: error });
}

/** An answer that is not what the provider's documentation promises: retryable, the next attempt looks first. */
export const unreadableAnswer = (provider: PayoutProviderName, what: string) =>
  new PayoutProviderError(provider, `${provider}: ${what}`, { retryable: true, code: 'unreadable-answer' });

import type { PaidAmount } from '@terrafund/contracts';
import type { NotificationHeaders } from './wire';

/**
 * What the deposit flow needs from a payment provider (docs/product.md §5.4 Payment providers). Three adapters
 * implement it: the built-in sandbox, BTCPay Server (Greenfield API) and NOWPayments.
 *
 * The flow: createInvoice → the member pays on `paymentUrl` → a notification arrives on our webhook →
 * verifyNotification on the raw bytes → fetchStatus asks the provider's API → only `settled` activates a pack.
 */
export type ProviderName = 'sandbox' | 'btcpay' | 'nowpayments';

export type CreateInvoiceInput = {
  /** Our transaction id; comes back as the invoice's order id. */
  orderId: string;
  amountCents: number;
  currency: 'USD';
  description: string;
  /** BTCPay's single redirect for paid and expired screens; may hold `{InvoiceId}` and `{OrderId}`. */
  returnUrl: string;
  successUrl: string;
  cancelUrl: string;
  /** Our webhook (NOWPayments takes it per invoice; BTCPay's is registered once in the store). */
  notifyUrl: string;
  expiresInMinutes: number;
};

type CreatedInvoice = { invoiceId: string; paymentUrl: string; expiresAt?: Date };

/**
 * `review`: money may have arrived but the pack must not activate automatically — an admin decides.
 * `mismatch` means the provider reports a settled payment whose order, amount or currency is not ours.
 */
export type ReviewReason = 'partial' | 'late' | 'over' | 'mismatch';

export type ProviderStatus = {
  state: 'pending' | 'settled' | 'expired' | 'failed' | 'review';
  orderId?: string;
  amountCents?: number;
  currency?: string;
  invoiceId?: string;
  paymentId?: string;
  /** The provider's own status word (plus BTCPay's additionalStatus), for logs and the admin. */
  rawStatus: string;
  reviewReason?: ReviewReason;
  /**
   * What arrived, as the provider counts it, in the coin it came in: shown to the admin and the member beside
   * what was asked when a payment is held. Absent when the provider reports nothing paid.
   */
  paid?: PaidAmount;
  /** Why the provider could not say what arrived (the settlement logs it and goes on without). */
  paidUnknown?: string;
  /**
   * Pending, but money has been seen (BTCPay Processing, NOWPayments confirming…): the invoice must not be
   * timed out by us while the provider is still confirming a payment made in time.
   */
  paymentDetected?: boolean;
};

export type VerifiedNotification = {
  /** Dedupe key: BTCPay originalDeliveryId (the first delivery's id, shared by retries); NOWPayments payment_id:payment_status. */
  deliveryKey: string;
  invoiceId?: string;
  paymentId?: string;
  orderId?: string;
  type: string;
  /** False for types we do not act on: answer 2xx and ignore. */
  known: boolean;
};

/**
 * What we expect of the invoice we created: a provider answer for another order, amount or currency never
 * settles (docs/product.md §5.4 Payment providers: "Settle only after GET … shows Settled, currency USD, the pack's amount and our order id").
 */
type ExpectedPayment = { orderId: string; amountCents: number };

type StatusRef = { invoiceId?: string; paymentId?: string; expected: ExpectedPayment };

export interface PaymentProvider {
  readonly name: ProviderName;
  createInvoice(input: CreateInvoiceInput): Promise<CreatedInvoice>;
  /** Null when the signature is missing or wrong (or the signed bytes are not a JSON object). */
  verifyNotification(rawBody: Buffer, headers: NotificationHeaders): VerifiedNotification | null;
  /** The provider's word on an invoice or payment, checked against what we expect, before settling. */
  fetchStatus(ref: StatusRef): Promise<ProviderStatus>;
}

/** `state: 'settled'` only when order, amount and currency are ours; otherwise review('mismatch'). */
export function checkSettlement(status: ProviderStatus, expected: ExpectedPayment): ProviderStatus {
  if (status.state !== 'settled') return status;
  const matches =
    status.orderId === expected.orderId &&
    status.amountCents === expected.amountCents &&
    status.currency?.toUpperCase() === 'USD';
  return matches ? status : { ...status, state: 'review', reviewReason: 'mismatch' };
}

/**
 * A coin amount from a provider ("0.00512000", or a JSON number such as 0.00512 or 1e-7) as a plain decimal
 * string; undefined for anything that is not a non-negative decimal. Never rounded to cents: coins have more
 * places than that.
 */
export function decimalText(value: unknown): string | undefined {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return undefined;
    // The shortest form that reads back as the same number, without an exponent.
    text = value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return undefined;
  }
  return /^\d+(\.\d+)?$/.test(text) ? text : undefined;
}

/** `decimalText` of an amount above zero; undefined for zero and for anything else. */
export function positiveDecimalText(value: unknown): string | undefined {
  const text = decimalText(value);
  return text !== undefined && /[1-9]/.test(text) ? text : undefined;
}

/** What arrived, when the amount is above zero and the coin is named (its code in capitals); undefined otherwise. */
export function paidAmount(amount: unknown, currency: unknown): PaidAmount | undefined {
  const text = positiveDecimalText(amount);
  if (text === undefined || typeof currency !== 'string' || currency.trim() === '') return undefined;
  return { amount: text, currency: currency.trim().toUpperCase() };
}

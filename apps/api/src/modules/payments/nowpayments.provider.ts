import { z } from 'zod';
import { ProviderHttpError, requestJson } from './http';
import { checkSettlement, paidAmount, type PaymentProvider, type ProviderStatus } from './provider';
import * as wire from './wire';

/**
 * NOWPayments (docs/product.md §5.4 Payment providers): invoices created with `x-api-key`; payments appear under an invoice, each with a
 * payment_id; IPNs signed with HMAC-SHA512 over the canonical (recursively key-sorted) JSON.
 */
type NowpaymentsOptions = {
  /** Default https://api.nowpayments.io */
  apiUrl?: string;
  apiKey: string;
  ipnSecret: string;
  timeoutMs?: number;
};

const NOWPAYMENTS_DEFAULT_API_URL = 'https://api.nowpayments.io';

type NowpaymentsStatus =
  | 'waiting'
  | 'confirming'
  | 'confirmed'
  | 'sending'
  | 'partially_paid'
  | 'finished'
  | 'failed'
  | 'refunded'
  | 'expired';

/**
 * Progress order of a payment's statuses. IPNs repeat and may arrive out of order; a status that does not
 * rank above the one already recorded is a regression or a repeat and is ignored. Final outcomes share a rank
 * so one never overwrites another; refunded can only follow one.
 */
const rank: Record<NowpaymentsStatus, number> = {
  waiting: 1,
  confirming: 2,
  confirmed: 3,
  sending: 4,
  partially_paid: 5,
  finished: 6,
  failed: 6,
  expired: 6,
  refunded: 7,
};

const isNowpaymentsStatus = (value: unknown): value is NowpaymentsStatus =>
  typeof value === 'string' && Object.hasOwn(rank, value);

/** True when `next` moves a payment forward from `current` (undefined: nothing recorded yet). */
export function isNowpaymentsProgress(current: string | undefined, next: string): boolean {
  if (!isNowpaymentsStatus(next)) return false;
  if (current === undefined || !isNowpaymentsStatus(current)) return true;
  return rank[next] > rank[current];
}

/** Objects with keys sorted at every depth; arrays keep their order (the official SDK's sortObjectDeep). */
export function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (wire.isPlainObject(value)) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeysDeep(value[key])]),
    );
  }
  return value;
}

/** The IPN signature: hex HMAC-SHA512, keyed with the trimmed secret, of the canonical JSON. */
export const nowpaymentsSignature = (payload: unknown, ipnSecret: string): string =>
  wire.hmacHex('sha512', ipnSecret.trim(), JSON.stringify(sortKeysDeep(payload)));

/**
 * An IPN's payload, payments' and payouts' (modules/withdrawals) alike, when `x-nowpayments-sig` is its
 * signature; undefined when the header is missing, the bytes are not a JSON object or the signature is wrong.
 */
export function nowpaymentsSignedPayload(rawBody: Buffer, headers: wire.NotificationHeaders, ipnSecret: string): Record<string, unknown> | undefined {
  const presented = wire.headerValue(headers, 'x-nowpayments-sig')?.trim();
  if (!presented) return undefined;
  const payload = wire.parseJson(rawBody);
  if (!wire.isPlainObject(payload)) return undefined;
  return wire.hexSignatureMatches(nowpaymentsSignature(payload, ipnSecret), presented) ? payload : undefined;
}

/** NOWPayments wants an ASCII order_description: accents folded, anything else dropped. */
export const asciiDescription = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/[^\x20-\x7E]/g, '')
    .replace(/\s+/g, ' ')
    .trim();

const createdInvoiceSchema = z.object({
  id: z.union([z.string().min(1), z.number()]),
  invoice_url: z.string().min(1),
});

const paymentSchema = z.object({
  payment_id: z.union([z.string().min(1), z.number()]),
  payment_status: z.string(),
  price_amount: z.union([z.string(), z.number()]).nullish(),
  price_currency: z.string().nullish(),
  order_id: z.union([z.string(), z.number()]).nullish(),
  invoice_id: z.union([z.string(), z.number()]).nullish(),
  /** What arrived so far, in `pay_currency` (a coin code such as btc or usdttrc20). */
  actually_paid: z.union([z.string(), z.number()]).nullish(),
  pay_currency: z.string().nullish(),
});
type NowpaymentsPayment = z.infer<typeof paymentSchema>;

export function createNowpaymentsProvider(options: NowpaymentsOptions): PaymentProvider {
  const apiUrl = (options.apiUrl ?? NOWPAYMENTS_DEFAULT_API_URL).replace(/\/+$/, '');
  const headers = { 'x-api-key': options.apiKey };

  return {
    name: 'nowpayments',

    async createInvoice(input) {
      const { status, body } = await requestJson({
        provider: 'NOWPayments',
        method: 'POST',
        url: `${apiUrl}/v1/invoice`,
        headers,
        timeoutMs: options.timeoutMs,
        body: {
          price_amount: Number(wire.centsToDecimal(input.amountCents)),
          price_currency: input.currency.toLowerCase(),
          order_id: input.orderId,
          order_description: asciiDescription(input.description),
          ipn_callback_url: input.notifyUrl,
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          // Partial money is for an admin to review; our return route tells the member what happened.
          partially_paid_url: input.returnUrl,
        },
      });
      const created = createdInvoiceSchema.safeParse(body);
      if (!created.success) {
        throw new ProviderHttpError('NOWPayments', 'create invoice answered without id and invoice_url', { status, body });
      }
      // NOWPayments invoices take no expiry; our invoice-expiry job times the deposit out.
      return { invoiceId: String(created.data.id), paymentUrl: created.data.invoice_url };
    },

    verifyNotification(rawBody, requestHeaders) {
      const payload = nowpaymentsSignedPayload(rawBody, requestHeaders, options.ipnSecret);
      if (!payload) return null;
      const paymentId = wire.idString(payload.payment_id);
      const type = typeof payload.payment_status === 'string' ? payload.payment_status : '';
      return {
        // No event id: one IPN per status step plus retries, so payment and status identify a delivery.
        deliveryKey: `${paymentId ?? ''}:${type}`,
        paymentId,
        invoiceId: wire.idString(payload.invoice_id),
        orderId: wire.idString(payload.order_id),
        type,
        known: paymentId !== undefined && isNowpaymentsStatus(type),
      };
    },

    async fetchStatus(ref) {
      // An invoice has no status of its own: until a payment shows up under it, it is waiting.
      if (!ref.paymentId) return { state: 'pending', invoiceId: ref.invoiceId, rawStatus: 'no_payment' };
      const { status, body } = await requestJson({
        provider: 'NOWPayments',
        method: 'GET',
        url: `${apiUrl}/v1/payment/${encodeURIComponent(ref.paymentId)}`,
        headers,
        timeoutMs: options.timeoutMs,
      });
      const payment = paymentSchema.safeParse(body);
      if (!payment.success) {
        throw new ProviderHttpError('NOWPayments', 'payment answer is missing payment_id or payment_status', { status, body });
      }
      if (String(payment.data.payment_id) !== ref.paymentId) {
        throw new ProviderHttpError('NOWPayments', `asked for payment ${ref.paymentId}, got ${payment.data.payment_id}`, {
          status,
          body,
        });
      }
      const mapped = mapNowpaymentsPayment(payment.data);
      // A payment under another invoice than the one we created for this order is not ours to settle.
      if (mapped.state === 'settled' && ref.invoiceId !== undefined && mapped.invoiceId !== ref.invoiceId) {
        return { ...mapped, state: 'review', reviewReason: 'mismatch' };
      }
      return checkSettlement(mapped, ref.expected);
    },
  };
}

function mapNowpaymentsPayment(payment: NowpaymentsPayment): ProviderStatus {
  const paid = paidAmount(payment.actually_paid, payment.pay_currency);
  const base = {
    paymentId: String(payment.payment_id),
    invoiceId: wire.idString(payment.invoice_id),
    orderId: wire.idString(payment.order_id),
    amountCents: wire.decimalToCents(payment.price_amount) ?? undefined,
    currency: payment.price_currency ?? undefined,
    rawStatus: payment.payment_status,
    ...(paid ? { paid } : {}),
  };
  switch (payment.payment_status) {
    case 'finished':
      return { ...base, state: 'settled' };
    case 'partially_paid':
      return { ...base, state: 'review', reviewReason: 'partial' };
    case 'failed':
    case 'refunded':
      return { ...base, state: 'failed' };
    case 'expired':
      return { ...base, state: 'expired' };
    case 'confirming':
    case 'confirmed':
    case 'sending':
      // The money is on its way: in progress, never settle yet.
      return { ...base, state: 'pending', paymentDetected: true };
    default:
      // waiting, and anything unknown: nothing paid yet.
      return { ...base, state: 'pending' };
  }
}

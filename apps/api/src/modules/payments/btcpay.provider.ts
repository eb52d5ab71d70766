import { z } from 'zod';
import type { PaidAmount } from '@terrafund/contracts';
import { requestJson, ProviderHttpError } from './http';
import {
  checkSettlement,
  paidAmount,
  positiveDecimalText,
  type PaymentProvider,
  type ProviderStatus,
  type VerifiedNotification,
} from './provider';
import * as wire from './wire';

/**
 * BTCPay Server, Greenfield API (docs/product.md §5.4 Payment providers): store-scoped invoice paths, `Authorization: token {apiKey}`,
 * webhooks signed `BTCPay-Sig: sha256=<hex HMAC-SHA256 of the raw body>`.
 */
type BtcpayOptions = {
  /** Base URL of the BTCPay server, e.g. https://btcpay.example.com */
  url: string;
  apiKey: string;
  storeId: string;
  webhookSecret: string;
  timeoutMs?: number;
};

/** Webhook types we act on; anything else (InvoiceCreated, InvoiceExpiredPaidPartial, …) is acknowledged and ignored. */
const BTCPAY_KNOWN_TYPES: ReadonlySet<string> = new Set([
  'InvoiceSettled',
  'InvoiceExpired',
  'InvoiceInvalid',
  'InvoiceProcessing',
  'InvoiceReceivedPayment',
  'InvoicePaymentSettled',
]);

const createdInvoiceSchema = z.object({
  id: z.string().min(1),
  checkoutLink: z.string().min(1),
  expirationTime: z.number().optional(),
});

const invoiceSchema = z.object({
  id: z.string().min(1),
  status: z.string(),
  additionalStatus: z.string().nullish(),
  amount: z.union([z.string(), z.number()]),
  currency: z.string(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
});
type BtcpayInvoice = z.infer<typeof invoiceSchema>;

/**
 * One entry of GET …/invoices/{id}/payment-methods (Greenfield InvoicePaymentMethodDataModel). BTCPay 2 names
 * the method and its coin `paymentMethodId` and `currency`; 1.x named them `paymentMethod` and `cryptoCode`.
 */
const decimal = z.union([z.string(), z.number()]).nullish();
const paymentMethodSchema = z.object({
  paymentMethodId: z.string().nullish(),
  paymentMethod: z.string().nullish(),
  currency: z.string().nullish(),
  cryptoCode: z.string().nullish(),
  paymentMethodPaid: decimal,
  totalPaid: decimal,
});
type BtcpayPaymentMethod = z.infer<typeof paymentMethodSchema>;

/**
 * What arrived for an invoice: the `totalPaid` (every method's payments, in this method's coin) of the first
 * method that was paid with, so a payment split over on-chain and Lightning counts whole.
 */
function paidOf(methods: BtcpayPaymentMethod[]): PaidAmount | undefined {
  const paying = methods.find((method) => positiveDecimalText(method.paymentMethodPaid) !== undefined);
  if (!paying) return undefined;
  return paidAmount(paying.totalPaid ?? paying.paymentMethodPaid, paying.currency ?? paying.cryptoCode);
}

export function createBtcpayProvider(options: BtcpayOptions): PaymentProvider {
  const storeUrl = `${options.url.replace(/\/+$/, '')}/api/v1/stores/${encodeURIComponent(options.storeId)}`;
  const headers = { authorization: `token ${options.apiKey}` };

  async function fetchPaid(invoiceId: string): Promise<PaidAmount | undefined> {
    const { status, body } = await requestJson({
      provider: 'BTCPay',
      method: 'GET',
      url: `${storeUrl}/invoices/${encodeURIComponent(invoiceId)}/payment-methods`,
      headers,
      timeoutMs: options.timeoutMs,
    });
    const methods = z.array(paymentMethodSchema).safeParse(body);
    if (!methods.success) throw new ProviderHttpError('BTCPay', 'payment methods answer is not a list of payment methods', { status, body });
    return paidOf(methods.data);
  }

  return {
    name: 'btcpay',

    async createInvoice(input) {
      const { status, body } = await requestJson({
        provider: 'BTCPay',
        method: 'POST',
        url: `${storeUrl}/invoices`,
        headers,
        timeoutMs: options.timeoutMs,
        body: {
          amount: wire.centsToDecimal(input.amountCents),
          currency: input.currency,
          metadata: { orderId: input.orderId, itemDesc: input.description },
          checkout: {
            expirationMinutes: input.expiresInMinutes,
            redirectURL: input.returnUrl,
            redirectAutomatically: true,
          },
        },
      });
      const created = createdInvoiceSchema.safeParse(body);
      if (!created.success) {
        throw new ProviderHttpError('BTCPay', 'create invoice answered without id and checkoutLink', { status, body });
      }
      const { id, checkoutLink, expirationTime } = created.data;
      return {
        invoiceId: id,
        paymentUrl: checkoutLink,
        expiresAt: expirationTime === undefined ? undefined : new Date(expirationTime * 1000),
      };
    },

    verifyNotification(rawBody, requestHeaders) {
      return verifyBtcpayStyleNotification(rawBody, requestHeaders, {
        header: 'BTCPay-Sig',
        secret: options.webhookSecret,
        knownTypes: BTCPAY_KNOWN_TYPES,
      });
    },

    async fetchStatus(ref) {
      if (!ref.invoiceId) throw new Error('BTCPay status needs an invoiceId');
      const { status, body } = await requestJson({
        provider: 'BTCPay',
        method: 'GET',
        url: `${storeUrl}/invoices/${encodeURIComponent(ref.invoiceId)}`,
        headers,
        timeoutMs: options.timeoutMs,
      });
      const invoice = invoiceSchema.safeParse(body);
      if (!invoice.success) {
        throw new ProviderHttpError('BTCPay', 'invoice answer is missing id, status, amount or currency', { status, body });
      }
      if (invoice.data.id !== ref.invoiceId) {
        throw new ProviderHttpError('BTCPay', `asked for invoice ${ref.invoiceId}, got ${invoice.data.id}`, { status, body });
      }
      const mapped = checkSettlement(mapBtcpayInvoice(invoice.data), ref.expected);
      // The invoice answers what was asked; what arrived is in its payment methods, read once money is there.
      if (mapped.state !== 'settled' && mapped.state !== 'review') return mapped;
      try {
        const paid = await fetchPaid(ref.invoiceId);
        return paid ? { ...mapped, paid } : mapped;
      } catch (error) {
        // What arrived is for the admin's eyes: a settlement or a hold never waits for it.
        return { ...mapped, paidUnknown: error instanceof Error ? error.message : String(error) };
      }
    },
  };
}

/**
 * Greenfield status → our state. Processing is paid but unconfirmed and can fall back to New: never final.
 * Money that arrived partially, late or in excess goes to review.
 */
function mapBtcpayInvoice(invoice: BtcpayInvoice): ProviderStatus {
  const additional = invoice.additionalStatus ?? 'None';
  const base = {
    invoiceId: invoice.id,
    orderId: wire.idString(invoice.metadata?.orderId),
    amountCents: wire.decimalToCents(invoice.amount) ?? undefined,
    currency: invoice.currency,
    rawStatus: additional === 'None' ? invoice.status : `${invoice.status}/${additional}`,
  };
  switch (invoice.status) {
    case 'Settled':
      return additional === 'PaidOver' ? { ...base, state: 'review', reviewReason: 'over' } : { ...base, state: 'settled' };
    case 'Expired':
      if (additional === 'PaidPartial') return { ...base, state: 'review', reviewReason: 'partial' };
      if (additional === 'PaidLate') return { ...base, state: 'review', reviewReason: 'late' };
      return { ...base, state: 'expired' };
    case 'Invalid':
      return { ...base, state: 'failed' };
    case 'Processing':
      // Paid in full, waiting for confirmations: can still fall back to New, so it never settles.
      return { ...base, state: 'pending', paymentDetected: true };
    default:
      // New (perhaps partly paid), and any status a later BTCPay version adds: wait, never settle.
      return additional === 'PaidPartial' ? { ...base, state: 'pending', paymentDetected: true } : { ...base, state: 'pending' };
  }
}

/**
 * The BTCPay webhook scheme, shared with the sandbox and the payout webhooks (modules/withdrawals): the header
 * holds `sha256=<hex>` of the raw bytes as received (the body is pretty-printed; a re-serialisation would not
 * match), compared in constant time. The body when it is signed so and is a JSON object; undefined otherwise.
 */
export function btcpaySignedBody(rawBody: Buffer, headers: wire.NotificationHeaders, header: string, secret: string): Record<string, unknown> | undefined {
  const presented = wire.headerValue(headers, header)?.trim();
  if (!presented?.startsWith('sha256=')) return undefined;
  if (!wire.hexSignatureMatches(wire.hmacHex('sha256', secret, rawBody), presented.slice('sha256='.length))) return undefined;
  const body = wire.parseJson(rawBody);
  return wire.isPlainObject(body) ? body : undefined;
}

/** A deposit notification of the BTCPay scheme (btcpaySignedBody): the BTCPay provider's and the sandbox's. */
export function verifyBtcpayStyleNotification(
  rawBody: Buffer,
  headers: wire.NotificationHeaders,
  scheme: { header: string; secret: string; knownTypes: ReadonlySet<string> },
): VerifiedNotification | null {
  const body = btcpaySignedBody(rawBody, headers, scheme.header, scheme.secret);
  if (!body) return null;
  const deliveryId = wire.idString(body.originalDeliveryId) ?? wire.idString(body.deliveryId);
  const type = typeof body.type === 'string' ? body.type : '';
  const metadata = wire.isPlainObject(body.metadata) ? body.metadata : {};
  const invoiceId = wire.idString(body.invoiceId);
  return {
    // A retry is a new delivery carrying the first one's id in originalDeliveryId: one key for all of them.
    deliveryKey: deliveryId ?? `${type}:${invoiceId ?? ''}:${wire.hmacHex('sha256', scheme.secret, rawBody)}`,
    invoiceId,
    orderId: wire.idString(metadata.orderId),
    type,
    known: scheme.knownTypes.has(type) && invoiceId !== undefined,
  };
}

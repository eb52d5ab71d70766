import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { messages } from '@terrafund/contracts';
import { AppError } from '../../lib/app-error';
import type { Clock } from '../../lib/clock';
import { verifyBtcpayStyleNotification } from './btcpay.provider';
import { checkSettlement, type PaymentProvider, type ProviderStatus } from './provider';
import { centsToDecimal, hmacHex } from './wire';

/**
 * Our own provider, the default (docs/product.md §5.4 Payment providers "Built-in sandbox"): the checkout page is ours, and paying or
 * letting the invoice expire produces a notification signed the way BTCPay signs its webhooks (header
 * `Sandbox-Sig: sha256=<hex HMAC-SHA256 of the raw body>`), so the webhook path is the real one.
 */
type SandboxStatus = 'New' | 'Settled' | 'Expired';

export type SandboxInvoice = {
  id: string;
  orderId: string;
  amountCents: number;
  currency: 'USD';
  description: string;
  returnUrl: string;
  status: SandboxStatus;
  createdAt: Date;
  expiresAt: Date;
  /** When it was paid or expired. */
  closedAt?: Date;
};

/**
 * Where sandbox invoices live: the database in the server (sandbox.store.ts), memory in unit tests. `update`
 * is a compare-and-set: it changes the invoice only while its status is still `from`, and answers undefined
 * otherwise, so two clicks on Pay (or Pay racing expiry, on two servers) close an invoice once.
 */
export interface SandboxStore {
  save(invoice: SandboxInvoice): Promise<void>;
  get(id: string): Promise<SandboxInvoice | undefined>;
  update(
    id: string,
    from: SandboxStatus,
    change: Pick<SandboxInvoice, 'status' | 'closedAt'>,
  ): Promise<SandboxInvoice | undefined>;
}

export function memorySandboxStore(): SandboxStore {
  const invoices = new Map<string, SandboxInvoice>();
  return {
    async save(invoice) {
      invoices.set(invoice.id, { ...invoice });
    },
    async get(id) {
      const invoice = invoices.get(id);
      return invoice && { ...invoice };
    },
    async update(id, from, change) {
      const invoice = invoices.get(id);
      if (!invoice || invoice.status !== from) return undefined;
      const updated = { ...invoice, ...change };
      invoices.set(id, updated);
      return { ...updated };
    },
  };
}

type SandboxOptions = {
  /** PUBLIC_URL: the checkout page is served by our own server. */
  publicUrl: string;
  /** Key of the notifications' HMAC. */
  secret: string;
  store: SandboxStore;
  clock: Clock;
  /** Overrides the caller's expiresInMinutes, to watch an expiry happen quickly while developing. */
  expiresInMinutes?: number;
};

const SANDBOX_SIGNATURE_HEADER = 'Sandbox-Sig';
const KNOWN_TYPES: ReadonlySet<string> = new Set(['InvoiceSettled', 'InvoiceExpired']);

/** A signed notification, ready to be POSTed to our webhook (or injected) exactly as received bytes. */
type SandboxNotification = { body: Buffer; headers: Record<string, string> };

export type SandboxProvider = PaymentProvider & {
  readonly name: 'sandbox';
  /** The invoice as the checkout page shows it; an open invoice past its expiry reads as Expired. */
  getInvoice(invoiceId: string): Promise<SandboxInvoice>;
  /** The member pays on the checkout page. 404 unknown invoice, 409 already paid or expired. */
  pay(invoiceId: string): Promise<SandboxNotification>;
  /** The member lets it expire (or the expiry time has passed). 404 unknown invoice, 409 already paid or expired. */
  expire(invoiceId: string): Promise<SandboxNotification>;
  /** Whether `key` is the checkout capability of `invoiceId` (the `key` of its payment URL), in constant time. */
  checkoutKeyMatches(invoiceId: string, key: string | undefined): boolean;
  /** The CSRF token the checkout page's forms carry. */
  formToken(invoiceId: string): string;
  /** Whether `token` is the form token of `invoiceId`, in constant time. */
  formTokenMatches(invoiceId: string, token: string | undefined): boolean;
};

/** The query parameter of the checkout URL that carries its capability. */
export const CHECKOUT_KEY_PARAM = 'key';
/** The checkout forms' hidden field that carries the CSRF token. */
export const FORM_TOKEN_FIELD = 'csrf';

/** A keyed value for one invoice and purpose: 256 bits, base64url, unguessable without the sandbox's secret. */
const keyedToken = (key: Buffer, invoiceId: string) => createHmac('sha256', key).update(invoiceId, 'utf8').digest('base64url');

function tokenMatches(expected: string, presented: string | undefined): boolean {
  if (typeof presented !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(presented);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function createSandboxProvider(options: SandboxOptions): SandboxProvider {
  const { store, clock } = options;
  const publicUrl = options.publicUrl.replace(/\/+$/, '');

  const sign = (body: Buffer) => `sha256=${hmacHex('sha256', options.secret, body)}`;
  // Keys of their own, derived from the sandbox's secret: a value made for one purpose opens nothing else.
  const subKey = (purpose: string) => createHmac('sha256', options.secret).update(`terrafund:sandbox:${purpose}:v1`).digest();
  const checkoutKey = subKey('checkout-capability');
  const formKey = subKey('checkout-form');

  function notification(invoice: SandboxInvoice, type: 'InvoiceSettled' | 'InvoiceExpired'): SandboxNotification {
    const deliveryId = randomBytes(16).toString('base64url');
    const body = Buffer.from(
      JSON.stringify(
        {
          deliveryId,
          webhookId: 'sandbox',
          originalDeliveryId: deliveryId,
          isRedelivery: false,
          type,
          timestamp: Math.floor(clock.now().getTime() / 1000),
          storeId: 'sandbox',
          invoiceId: invoice.id,
          metadata: { orderId: invoice.orderId },
        },
        null,
        2,
      ),
    );
    return {
      body,
      headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER.toLowerCase()]: sign(body) },
    };
  }

  async function load(invoiceId: string): Promise<SandboxInvoice> {
    const invoice = await store.get(invoiceId);
    if (!invoice) throw new AppError('NOT_FOUND', messages.wallet.invoiceNotFound);
    return invoice;
  }

  const isOverdue = (invoice: SandboxInvoice) =>
    invoice.status === 'New' && clock.now().getTime() >= invoice.expiresAt.getTime();

  async function close(invoiceId: string, to: 'Settled' | 'Expired'): Promise<SandboxInvoice> {
    const invoice = await load(invoiceId);
    // Left open in the store: expire() still closes it and sends the notification the webhook needs.
    if (to === 'Settled' && isOverdue(invoice)) throw new AppError('CONFLICT', messages.wallet.invoiceExpired);
    const closed = await store.update(invoiceId, 'New', { status: to, closedAt: clock.now() });
    if (!closed) {
      const current = await load(invoiceId);
      throw new AppError('CONFLICT', current.status === 'Settled' ? messages.wallet.invoicePaid : messages.wallet.invoiceExpired);
    }
    return closed;
  }

  return {
    name: 'sandbox',

    async createInvoice(input) {
      const now = clock.now();
      const minutes = options.expiresInMinutes ?? input.expiresInMinutes;
      const invoice: SandboxInvoice = {
        id: randomBytes(16).toString('base64url'),
        orderId: input.orderId,
        amountCents: input.amountCents,
        currency: input.currency,
        description: input.description,
        returnUrl: input.returnUrl,
        status: 'New',
        createdAt: now,
        expiresAt: new Date(now.getTime() + minutes * 60_000),
      };
      await store.save(invoice);
      return {
        invoiceId: invoice.id,
        // The capability travels in the URL only the member is given: without it the page and its buttons are
        // 404, so knowing an invoice id (admins see them, logs name them) is not enough to pay or expire it.
        paymentUrl: `${publicUrl}/api/payments/sandbox/checkout/${encodeURIComponent(invoice.id)}?${CHECKOUT_KEY_PARAM}=${keyedToken(checkoutKey, invoice.id)}`,
        expiresAt: invoice.expiresAt,
      };
    },

    verifyNotification(rawBody, headers) {
      return verifyBtcpayStyleNotification(rawBody, headers, {
        header: SANDBOX_SIGNATURE_HEADER,
        secret: options.secret,
        knownTypes: KNOWN_TYPES,
      });
    },

    async fetchStatus(ref) {
      if (!ref.invoiceId) throw new Error('Sandbox status needs an invoiceId');
      const invoice = await load(ref.invoiceId);
      const status: SandboxStatus = isOverdue(invoice) ? 'Expired' : invoice.status;
      const base = {
        invoiceId: invoice.id,
        orderId: invoice.orderId,
        amountCents: invoice.amountCents,
        currency: invoice.currency,
        rawStatus: status,
      };
      const state: ProviderStatus['state'] = status === 'Settled' ? 'settled' : status === 'Expired' ? 'expired' : 'pending';
      // The sandbox is paid in full, in the invoice's own currency, or not at all.
      const paid = status === 'Settled' ? { paid: { amount: centsToDecimal(invoice.amountCents), currency: invoice.currency } } : {};
      return checkSettlement({ ...base, ...paid, state }, ref.expected);
    },

    async getInvoice(invoiceId) {
      const invoice = await load(invoiceId);
      return isOverdue(invoice) ? { ...invoice, status: 'Expired', closedAt: invoice.expiresAt } : invoice;
    },

    async pay(invoiceId) {
      return notification(await close(invoiceId, 'Settled'), 'InvoiceSettled');
    },

    async expire(invoiceId) {
      return notification(await close(invoiceId, 'Expired'), 'InvoiceExpired');
    },

    checkoutKeyMatches: (invoiceId, key) => tokenMatches(keyedToken(checkoutKey, invoiceId), key),
    formToken: (invoiceId) => keyedToken(formKey, invoiceId),
    formTokenMatches: (invoiceId, token) => tokenMatches(keyedToken(formKey, invoiceId), token),
  };
}

import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import { messages, PACKS, usdToCents, UUID_PATTERN, type DepositResponse, type PackId } from '@terrafund/contracts';
import { lockMember } from '../../db/member-lock';
import { paymentInvoices, paymentNotifications, transactions, type PaymentInvoiceRow, type UserRow } from '../../db/schema';
import type { Deps } from '../../deps';
import { AppError } from '../../lib/app-error';
import { toTransactionDto } from '../transactions';
import { isSandboxProvider } from './configured-provider';
import type { PaymentProvider, ProviderName, ProviderStatus, VerifiedNotification } from './provider';
import type { NotificationHeaders } from './wire';
import { applyProviderStatus, type SettlementOutcome } from './settlement.service';

/** What the payment routes and the reconciler need: the settlement's dependencies and the configured provider. */
export type PaymentDeps = Pick<Deps, 'db' | 'clock' | 'secrets' | 'config' | 'logger' | 'mailQueued' | 'paymentProvider'>;

export const PROVIDER_NAMES = ['sandbox', 'btcpay', 'nowpayments'] as const satisfies readonly ProviderName[];

/** An open invoice is offered again only if the member still has this long to pay it. */
const RESUME_MARGIN_MS = 5 * 60_000;
/**
 * A pending deposit without its invoice yet is one whose provider call is in flight (at most the provider
 * timeout); older ones were left by a crash and are failed by the reconciler.
 */
export const INVOICE_CREATION_WINDOW_MS = 2 * 60_000;

const packOf = (plan: PackId) => PACKS.find((p) => p.id === plan)!;
const capitalised = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/** Our addresses the provider sends the member and its notifications to (docs/product.md §12 Running it: PUBLIC_URL). */
function providerUrls(publicUrl: string, provider: ProviderName, transactionId: string) {
  return {
    returnUrl: `${publicUrl}/api/payments/return/${provider}?orderId=${encodeURIComponent(transactionId)}`,
    successUrl: `${publicUrl}/wallet/payment/success`,
    cancelUrl: `${publicUrl}/wallet/payment/timeout`,
    notifyUrl: `${publicUrl}/api/payments/webhooks/${provider}`,
  };
}

/**
 * A plan purchase (docs/product.md §9.1 General, §5.5 Memberships; KYC is not needed to buy a pack). The amount is the pack's
 * price, whatever the client sent.
 *
 * No HTTP call inside an open database transaction: the pending deposit is committed first, then the provider
 * is asked for an invoice, then the invoice is recorded. A provider that fails or does not answer fails the
 * deposit (nothing was bought) and the member is told to try again (503). A crash between the two leaves a
 * pending deposit without an invoice, which the reconciler fails.
 *
 * Asking again for the same plan while its invoice is still payable answers that invoice again instead of
 * opening a second one the member could pay as well; the member row is locked, here and while the invoice is
 * recorded, so simultaneous clicks agree on one deposit.
 */
export async function createDeposit(deps: PaymentDeps, user: UserRow, plan: PackId): Promise<DepositResponse> {
  const provider = deps.paymentProvider;
  const pack = packOf(plan);
  const cents = usdToCents(pack.price);

  const pendingDepositOfPack = and(
    eq(transactions.userId, user.id),
    eq(transactions.type, 'deposit'),
    eq(transactions.status, 'pending'),
    eq(transactions.plan, pack.id),
  );
  const claim = await deps.db.transaction(async (tx) => {
    await lockMember(tx, user.id);
    const now = deps.clock.now();
    const [open] = await tx
      .select({ transaction: transactions, paymentUrl: paymentInvoices.paymentUrl })
      .from(transactions)
      .innerJoin(paymentInvoices, eq(paymentInvoices.transactionId, transactions.id))
      .where(
        and(
          pendingDepositOfPack,
          eq(paymentInvoices.provider, provider.name),
          eq(paymentInvoices.state, 'pending'),
          gt(paymentInvoices.expiresAt, new Date(now.getTime() + RESUME_MARGIN_MS)),
        ),
      )
      .orderBy(desc(transactions.createdAt))
      .limit(1);
    if (open) return { kind: 'resumed' as const, ...open };

    const [inFlight] = await tx
      .select({ id: transactions.id })
      .from(transactions)
      .leftJoin(paymentInvoices, eq(paymentInvoices.transactionId, transactions.id))
      .where(
        and(
          pendingDepositOfPack,
          isNull(paymentInvoices.id),
          gt(transactions.createdAt, new Date(now.getTime() - INVOICE_CREATION_WINDOW_MS)),
        ),
      )
      .limit(1);
    if (inFlight) throw new AppError('CONFLICT', messages.wallet.depositPending);

    const [created] = await tx
      .insert(transactions)
      .values({
        userId: user.id,
        type: 'deposit',
        amountCents: cents,
        status: 'pending',
        description: `${capitalised(pack.name)} pack purchase`,
        plan: pack.id,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return { kind: 'created' as const, transaction: created! };
  });
  if (claim.kind === 'resumed') return { transaction: toTransactionDto(claim.transaction), payment_url: claim.paymentUrl };

  const deposit = claim.transaction;
  const expiresInMinutes = deps.config.payments.invoiceExpiryMinutes;
  let invoice;
  try {
    invoice = await provider.createInvoice({
      orderId: deposit.id,
      amountCents: cents,
      currency: 'USD',
      description: deposit.description,
      ...providerUrls(deps.config.publicUrl, provider.name, deposit.id),
      expiresInMinutes,
    });
  } catch (error) {
    deps.logger.error({ err: error, transactionId: deposit.id, provider: provider.name }, 'payment provider refused to create an invoice');
    await deps.db
      .update(transactions)
      .set({ status: 'failed', updatedAt: deps.clock.now() })
      .where(and(eq(transactions.id, deposit.id), eq(transactions.status, 'pending')));
    throw new AppError('SERVICE_UNAVAILABLE', messages.wallet.paymentProviderUnavailable);
  }

  await deps.db.transaction(async (tx) => {
    // Under the member's lock too: a click being answered above reads "is an invoice open?" and then "is one being
    // made?", and an invoice recorded between those two reads would let it open a second deposit.
    await lockMember(tx, user.id);
    const now = deps.clock.now();
    const [current] = await tx.select({ status: transactions.status }).from(transactions).where(eq(transactions.id, deposit.id)).for('update');
    // Only if the reconciler took this deposit for abandoned (a provider call of minutes): its invoice is not ours.
    if (current?.status !== 'pending') throw new AppError('SERVICE_UNAVAILABLE', messages.wallet.paymentProviderUnavailable);
    await tx.insert(paymentInvoices).values({
      transactionId: deposit.id,
      userId: user.id,
      provider: provider.name,
      invoiceId: invoice.invoiceId,
      pack: pack.id,
      amountCents: cents,
      paymentUrl: invoice.paymentUrl,
      // NOWPayments invoices have no expiry of their own: ours times the deposit out.
      expiresAt: invoice.expiresAt ?? new Date(now.getTime() + expiresInMinutes * 60_000),
      lastCheckedAt: now,
      createdAt: now,
      updatedAt: now,
    });
  });
  return { transaction: toTransactionDto(deposit), payment_url: invoice.paymentUrl };
}

/** Our invoice a notification speaks of: by the provider's invoice id, else by our order id. */
async function invoiceFor(deps: PaymentDeps, provider: ProviderName, notification: VerifiedNotification) {
  if (notification.invoiceId) {
    const [row] = await deps.db
      .select()
      .from(paymentInvoices)
      .where(and(eq(paymentInvoices.provider, provider), eq(paymentInvoices.invoiceId, notification.invoiceId)));
    if (row) return row;
  }
  if (notification.orderId && UUID_PATTERN.test(notification.orderId)) {
    const [row] = await deps.db
      .select()
      .from(paymentInvoices)
      .where(and(eq(paymentInvoices.provider, provider), eq(paymentInvoices.transactionId, notification.orderId)));
    return row;
  }
  return undefined;
}

/** The provider's current word on one of our invoices, checked against what we asked for. */
export function fetchInvoiceStatus(provider: PaymentProvider, invoice: PaymentInvoiceRow, paymentId?: string): Promise<ProviderStatus> {
  return provider.fetchStatus({
    invoiceId: invoice.invoiceId,
    paymentId: paymentId ?? invoice.paymentId ?? undefined,
    expected: { orderId: invoice.transactionId, amountCents: invoice.amountCents },
  });
}

/** Not a message for members: only a provider (or someone pretending to be one) ever reads it. */
export const INVALID_SIGNATURE = 'Invalid notification signature';

/**
 * A provider's notification, as the raw bytes it signed (docs/product.md §5.4 Payment providers). Only the configured provider's address
 * is open (any other: 404), the signature is checked on the bytes as received (403 when it fails: 401 is
 * reserved for sessions, docs/product.md §9.2 Errors), and the notification is then only a trigger: the provider's
 * API is asked for the invoice's status, which the settlement applies. A type we do not act on, or an
 * invoice that is not ours, is acknowledged and ignored (a 4xx would only make the provider retry or give
 * up on a webhook that works). A provider that cannot be reached is a 503, so it delivers again.
 */
export async function handleNotification(
  deps: PaymentDeps,
  providerName: ProviderName,
  rawBody: Buffer,
  headers: NotificationHeaders,
): Promise<SettlementOutcome> {
  const provider = deps.paymentProvider;
  if (provider.name !== providerName) throw new AppError('NOT_FOUND', messages.common.notFound);
  const notification = provider.verifyNotification(rawBody, headers);
  if (!notification) throw new AppError('FORBIDDEN', INVALID_SIGNATURE);

  const log = { provider: provider.name, type: notification.type, deliveryKey: notification.deliveryKey, invoiceId: notification.invoiceId };
  if (!notification.known) {
    deps.logger.info(log, 'payment notification of a type we do not act on: ignored');
    return 'ignored';
  }
  const invoice = await invoiceFor(deps, provider.name, notification);
  if (!invoice) {
    deps.logger.warn({ ...log, orderId: notification.orderId }, 'payment notification for an invoice that is not ours: ignored');
    return 'ignored';
  }
  const [seen] = await deps.db
    .select({ key: paymentNotifications.deliveryKey })
    .from(paymentNotifications)
    .where(and(eq(paymentNotifications.provider, provider.name), eq(paymentNotifications.deliveryKey, notification.deliveryKey)));
  if (seen) return 'duplicate';

  const record = { provider: provider.name, deliveryKey: notification.deliveryKey, type: notification.type, invoiceId: notification.invoiceId };
  // A settled, held or admin-decided invoice never changes by a notification: nothing to ask the provider.
  if (invoice.state === 'settled' || invoice.state === 'review' || invoice.decision !== null) {
    return (await applyProviderStatus(deps, invoice.id, null, record)).outcome;
  }
  let status: ProviderStatus;
  try {
    status = await fetchInvoiceStatus(provider, invoice, notification.paymentId);
  } catch (error) {
    deps.logger.warn({ ...log, err: error }, 'payment provider unreachable while confirming a notification: asking for a redelivery');
    throw new AppError('SERVICE_UNAVAILABLE', messages.wallet.paymentProviderUnavailable);
  }
  return (await applyProviderStatus(deps, invoice.id, status, record)).outcome;
}

type ReturnPage = 'success' | 'timeout';

/**
 * Where the member lands after the provider's checkout (docs/product.md §5.3 Buying a pack: the return page settles
 * nothing). It reads our invoice; a still-pending one is asked about once, read-only. Paid but unconfirmed,
 * or held for review, is "success": the money was sent and the wallet shows the deposit pending.
 */
export async function returnPage(deps: PaymentDeps, providerName: string, orderId: string | undefined): Promise<ReturnPage> {
  if (!orderId || !UUID_PATTERN.test(orderId)) return 'timeout';
  const [invoice] = await deps.db.select().from(paymentInvoices).where(eq(paymentInvoices.transactionId, orderId));
  if (!invoice || invoice.provider !== providerName) return 'timeout';
  if (invoice.state === 'settled' || invoice.state === 'review') return 'success';
  if (invoice.state !== 'pending' || deps.paymentProvider.name !== invoice.provider) return 'timeout';
  try {
    const status = await fetchInvoiceStatus(deps.paymentProvider, invoice);
    return status.state === 'settled' || status.state === 'review' || status.paymentDetected ? 'success' : 'timeout';
  } catch (error) {
    deps.logger.warn({ err: error, invoiceId: invoice.invoiceId }, 'payment provider unreachable on the return page');
    return 'timeout';
  }
}

export const returnPageUrl = (publicUrl: string, page: ReturnPage) => `${publicUrl}/wallet/payment/${page}`;

/** Sandbox invoice ids are 16 random bytes in base64url; anything else names nothing. */
const SANDBOX_ID = /^[A-Za-z0-9_-]{10,64}$/;

/** The sandbox, when it is the configured provider; every sandbox route is a 404 otherwise. */
function sandboxOf(deps: Pick<PaymentDeps, 'paymentProvider'>) {
  const provider = deps.paymentProvider;
  if (!isSandboxProvider(provider)) throw new AppError('NOT_FOUND', messages.common.notFound);
  return provider;
}

/** A sandbox checkout, named by its invoice id and the capability of its payment URL; a wrong or missing one is a 404. */
function checkout(deps: Pick<PaymentDeps, 'paymentProvider'>, invoiceId: string, key: string | undefined) {
  const sandbox = sandboxOf(deps);
  if (!SANDBOX_ID.test(invoiceId) || !sandbox.checkoutKeyMatches(invoiceId, key)) {
    throw new AppError('NOT_FOUND', messages.wallet.invoiceNotFound);
  }
  return sandbox;
}

/** The checkout page's invoice and the CSRF token its forms carry. */
export async function sandboxInvoice(deps: PaymentDeps, invoiceId: string, key: string | undefined) {
  const sandbox = checkout(deps, invoiceId, key);
  return { invoice: await sandbox.getInvoice(invoiceId), formToken: sandbox.formToken(invoiceId) };
}

/**
 * Who sent a checkout form, as the browser tells it: `Origin`, or `Referer` when a browser sends no Origin.
 * `allowed` are our own origins (PUBLIC_URL's and the one the request came to).
 */
type FormSender = { origin?: string; referer?: string; allowed: readonly string[] };

/**
 * Whether the form came from one of our own pages. A browser names the page a cross-site POST comes from
 * (`Origin`, else `Referer`); "null" (a sandboxed frame, a privacy redirect) or an unreadable value is
 * refused. A request with neither is no browser's cross-site form; the CSRF token still has to match.
 */
function sentFromOwnSite(sender: FormSender): boolean {
  // An empty header is no header: no browser sends one, and it names no page.
  const claimed = sender.origin || sender.referer;
  if (!claimed) return true;
  let origin: string;
  try {
    origin = new URL(claimed).origin;
  } catch {
    return false;
  }
  return origin !== 'null' && sender.allowed.some((own) => own === origin);
}

/**
 * The member pays or lets a sandbox invoice expire on the checkout page: the checkout's capability (404), the
 * sender's origin and the form's CSRF token (403) are checked before anything changes; then the sandbox
 * closes its invoice (409 if already closed) and answers the signed notification, which the caller delivers
 * to our own webhook like any provider's. Answers the notification and where to send the member afterwards.
 */
export async function closeSandboxInvoice(
  deps: PaymentDeps,
  invoiceId: string,
  action: 'pay' | 'expire',
  form: { key: string | undefined; token: string | undefined; sender: FormSender },
) {
  const sandbox = checkout(deps, invoiceId, form.key);
  if (!sentFromOwnSite(form.sender)) throw new AppError('FORBIDDEN', messages.payments.checkoutCrossSite);
  if (!sandbox.formTokenMatches(invoiceId, form.token)) throw new AppError('FORBIDDEN', messages.payments.checkoutFormInvalid);
  const notification = action === 'pay' ? await sandbox.pay(invoiceId) : await sandbox.expire(invoiceId);
  const invoice = await sandbox.getInvoice(invoiceId);
  return { notification, returnUrl: invoice.returnUrl };
}

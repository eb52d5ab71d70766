import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { queryRows } from '../../db/client';
import { paymentInvoices, transactions, type PaymentInvoiceRow } from '../../db/schema';
import { isSandboxProvider } from './configured-provider';
import { fetchInvoiceStatus, INVOICE_CREATION_WINDOW_MS, type PaymentDeps } from './payments.service';
import type { ProviderStatus } from './provider';
import { applyProviderStatus, type SettlementOutcome } from './settlement.service';

/**
 * The payment reconciliation (docs/product.md §5.4 Payment providers: "Retries are lost if BTCPay restarts: reconcile pending
 * invoices by polling"), run every minute by jobs/payment-reconciler.ts. Each run:
 *
 * 1. claims a batch of pending invoices of the configured provider, oldest first, that nobody checked within
 *    RECHECK_MS: one UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED) stamps them `last_checked_at`, so
 *    two servers running the job at once take different invoices and an invoice is asked about at most once
 *    per RECHECK_MS whatever the number of servers;
 * 2. asks the provider for each one's status, outside any database transaction, and applies it through the
 *    same settlement function as the webhook (which locks the row and re-reads it, so a notification arriving
 *    meanwhile cannot make it settle twice);
 * 3. times out an invoice past its expiry plus GRACE_MS whose provider still reports nothing paid (the
 *    sandbox's expire path for its own invoices); one with a payment being confirmed is left to the provider;
 * 4. fails deposits whose invoice was never recorded (a crash between the provider's answer and our insert).
 */
export const RECHECK_MS = 60_000;
/** Room for clocks that disagree and for a provider that is slow to call an unpaid invoice expired. */
export const GRACE_MS = 10 * 60_000;
const BATCH_SIZE = 50;

export type ReconcileResult = { checked: number; outcomes: Partial<Record<SettlementOutcome, number>>; errors: number; abandoned: number };

export async function reconcilePayments(deps: PaymentDeps, options: { batchSize?: number } = {}): Promise<ReconcileResult> {
  const provider = deps.paymentProvider;
  const now = deps.clock.now();
  const result: ReconcileResult = { checked: 0, outcomes: {}, errors: 0, abandoned: 0 };

  const claimable = deps.db
    .select({ id: paymentInvoices.id })
    .from(paymentInvoices)
    .where(
      and(
        eq(paymentInvoices.state, 'pending'),
        eq(paymentInvoices.provider, provider.name),
        or(isNull(paymentInvoices.lastCheckedAt), lt(paymentInvoices.lastCheckedAt, new Date(now.getTime() - RECHECK_MS))),
      ),
    )
    .orderBy(paymentInvoices.createdAt)
    .limit(options.batchSize ?? BATCH_SIZE)
    .for('update', { skipLocked: true });
  const claimed: PaymentInvoiceRow[] = await deps.db
    .update(paymentInvoices)
    .set({ lastCheckedAt: now })
    .where(inArray(paymentInvoices.id, claimable))
    .returning();
  claimed.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());

  for (const invoice of claimed) {
    result.checked += 1;
    try {
      const status = await overdueAware(deps, invoice, await fetchInvoiceStatus(provider, invoice), now);
      const { outcome } = await applyProviderStatus(deps, invoice.id, status);
      result.outcomes[outcome] = (result.outcomes[outcome] ?? 0) + 1;
    } catch (error) {
      // One provider error must not stop the batch; the invoice is asked again after RECHECK_MS.
      result.errors += 1;
      deps.logger.warn({ err: error, invoiceId: invoice.invoiceId, provider: provider.name }, 'payment reconciliation could not check an invoice');
    }
  }

  result.abandoned = await failAbandonedDeposits(deps, now);
  return result;
}

/** The provider's status, or `expired` for an invoice past expiry + grace on which nothing was paid. */
async function overdueAware(deps: PaymentDeps, invoice: PaymentInvoiceRow, status: ProviderStatus, now: Date): Promise<ProviderStatus> {
  const provider = deps.paymentProvider;
  if (isSandboxProvider(provider) && status.state === 'expired') {
    // Our own provider reads an overdue invoice as expired; closing it makes that final (a click on Pay now
    // in a tab left open is then refused). Already closed by a click on "Let it expire": nothing to do.
    await provider.expire(invoice.invoiceId).catch(() => undefined);
    return status;
  }
  const overdue = invoice.expiresAt !== null && now.getTime() > invoice.expiresAt.getTime() + GRACE_MS;
  if (status.state !== 'pending' || status.paymentDetected || !overdue) return status;
  return { ...status, state: 'expired', rawStatus: `${status.rawStatus} (timed out)` };
}

/** Deposits still pending with no invoice long after the provider call would have ended: nothing was bought. */
async function failAbandonedDeposits(deps: PaymentDeps, now: Date): Promise<number> {
  const before = new Date(now.getTime() - 5 * INVOICE_CREATION_WINDOW_MS);
  const failed = await deps.db
    .update(transactions)
    .set({ status: 'failed', updatedAt: now })
    .where(
      and(
        eq(transactions.type, 'deposit'),
        eq(transactions.status, 'pending'),
        lt(transactions.createdAt, before),
        sql`not exists (select 1 from ${paymentInvoices} where ${paymentInvoices.transactionId} = ${transactions.id})`,
      ),
    )
    .returning({ id: transactions.id });
  if (failed.length > 0) deps.logger.warn({ transactions: failed.map((f) => f.id) }, 'deposits without an invoice failed');
  return failed.length;
}

/** Pending invoices of providers other than the configured one: left alone, reported at start. */
export async function strandedInvoices(deps: Pick<PaymentDeps, 'db' | 'paymentProvider'>): Promise<number> {
  const [row] = await queryRows<{ count: number }>(
    deps.db,
    sql`select count(*)::int as count from payment_invoices where state = 'pending' and provider <> ${deps.paymentProvider.name}`,
  );
  return row?.count ?? 0;
}

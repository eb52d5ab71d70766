import { desc, eq } from 'drizzle-orm';
import { centsToUsd, type PackPayment, type PackPaymentStatus } from '@terrafund/contracts';
import { paymentInvoices, type PaymentInvoiceRow } from '../../db/schema';
import type { Deps } from '../../deps';
import { paidOf } from './settlement.service';

/**
 * What the member is told about one payment. An invoice still `pending` past its expiry is already
 * `expired` to the member (the expiry job closes it within a minute; offering a dead checkout would lie).
 */
function packPaymentStatus(invoice: Pick<PaymentInvoiceRow, 'state' | 'expiresAt'>, now: Date): PackPaymentStatus {
  switch (invoice.state) {
    case 'settled':
      return 'settled';
    case 'review':
      return 'held';
    case 'expired':
      return 'expired';
    case 'failed':
      return 'failed';
    case 'pending':
      return invoice.expiresAt && invoice.expiresAt.getTime() <= now.getTime() ? 'expired' : 'pending';
  }
}

/**
 * GET /api/payments: every pack payment of the caller, newest first, whatever became of it, so a member whose
 * first payment expired still sees it (and one still open leads back to its checkout). A member makes a handful
 * of these, so the list is not paged.
 */
export async function listPackPayments(deps: Pick<Deps, 'db' | 'clock'>, userId: string): Promise<PackPayment[]> {
  const now = deps.clock.now();
  const rows = await deps.db
    .select()
    .from(paymentInvoices)
    .where(eq(paymentInvoices.userId, userId))
    .orderBy(desc(paymentInvoices.createdAt), desc(paymentInvoices.id));
  return rows.map((invoice) => {
    const status = packPaymentStatus(invoice, now);
    return {
      _id: invoice.id,
      transactionId: invoice.transactionId,
      pack: invoice.pack,
      amount: centsToUsd(invoice.amountCents),
      paid: paidOf(invoice),
      status,
      date: invoice.createdAt.toISOString(),
      payment_url: status === 'pending' ? invoice.paymentUrl : null,
      expiresAt: invoice.expiresAt?.toISOString() ?? null,
    };
  });
}

import { and, desc, eq, type SQL } from 'drizzle-orm';
import { centsToUsd, formatCentsFixed, messages, UUID_PATTERN, type HeldPayment, type reviewDecisionBody } from '@terrafund/contracts';
import type { z } from 'zod';
import type { Executor } from '../../db/client';
import { paymentInvoices, transactions, users, type UserRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { recordAudit } from '../audit';
import { enqueueMail } from '../mail';
import { packName, paidOf, settleDeposit, type SettlementDeps } from './settlement.service';

/**
 * The admin's review of held payments (docs/product.md §5.4 Payment providers "The flow", step 4: partial, late, over- and mismatched
 * money never activates a pack by itself). An admin looks at each invoice in `review` and either activates
 * the pack, exactly as the provider's "Settled" would have (the same settlement, in one database transaction),
 * or rejects it: the invoice and its deposit fail, no money moves on our ledger, and the admin returns the
 * money at the provider, where it is.
 *
 * One decision per invoice. The decision locks the invoice row (SELECT … FOR UPDATE) and checks it is still in
 * `review`, so of several admins deciding at once, or an admin racing a late notification, exactly one goes
 * through; the others get 409. A decided invoice is never held again (settlement.service.ts).
 */

type ReviewDecision = z.output<typeof reviewDecisionBody>;

/** A held payment with its deposit and member, as one row. */
const heldPaymentColumns = {
  invoice: paymentInvoices,
  transactionStatus: transactions.status,
  user: { id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email },
};

function selectHeldPayments(db: Executor, where: SQL | undefined) {
  return db
    .select(heldPaymentColumns)
    .from(paymentInvoices)
    .innerJoin(transactions, eq(transactions.id, paymentInvoices.transactionId))
    .innerJoin(users, eq(users.id, paymentInvoices.userId))
    .where(where);
}

type HeldPaymentRow = Awaited<ReturnType<typeof selectHeldPayments>>[number];

function toHeldPaymentDto({ invoice, transactionStatus, user }: HeldPaymentRow): HeldPayment {
  return {
    _id: invoice.id,
    provider: invoice.provider,
    providerInvoiceId: invoice.invoiceId,
    paymentId: invoice.paymentId,
    pack: invoice.pack,
    amount: centsToUsd(invoice.amountCents),
    paid: paidOf(invoice),
    state: invoice.state,
    reviewReason: invoice.reviewReason,
    rawStatus: invoice.rawStatus,
    createdAt: invoice.createdAt.toISOString(),
    closedAt: invoice.closedAt?.toISOString() ?? null,
    transactionId: invoice.transactionId,
    transactionStatus,
    user: { _id: user.id, firstName: user.firstName, lastName: user.lastName, email: user.email },
    decision: invoice.decision,
    decidedBy: invoice.decidedBy,
    decidedAt: invoice.decidedAt?.toISOString() ?? null,
    decisionNote: invoice.decisionNote,
  };
}

/**
 * GET /api/admin/payments/review: every invoice in `review`, newest first. Not paged or capped: each one is
 * money waiting for a decision, and hiding any would hide it; held payments are exceptions, few by nature
 * (`payment_invoices_review_idx` keeps the lookup an index scan however large the table grows).
 */
export async function listHeldPayments(deps: Pick<SettlementDeps, 'db'>): Promise<HeldPayment[]> {
  const rows = await selectHeldPayments(deps.db, eq(paymentInvoices.state, 'review')).orderBy(
    desc(paymentInvoices.createdAt),
    desc(paymentInvoices.id),
  );
  return rows.map(toHeldPaymentDto);
}

/** POST /api/admin/payments/{id}/review: activates or rejects one held payment, and answers it as decided. */
export async function decideHeldPayment(deps: SettlementDeps, admin: UserRow, id: string, body: ReviewDecision): Promise<HeldPayment> {
  const notFound = new AppError('NOT_FOUND', messages.payments.notFound);
  if (!UUID_PATTERN.test(id)) throw notFound;

  const decided = await deps.db.transaction(async (tx) => {
    const [invoice] = await tx.select().from(paymentInvoices).where(eq(paymentInvoices.id, id)).for('update');
    if (!invoice) throw notFound;
    if (invoice.state !== 'review') throw new AppError('CONFLICT', messages.payments.notInReview);
    const [deposit] = await tx.select({ status: transactions.status }).from(transactions).where(eq(transactions.id, invoice.transactionId));
    const now = deps.clock.now();
    const note = body.note ?? null;

    let replaced: string | undefined;
    if (body.decision === 'activate') {
      // A held deposit is pending, or failed when expiry came first: either way the money is here now.
      replaced = await settleDeposit(tx, deps, invoice, now, ['pending', 'failed']);
    } else {
      await tx
        .update(transactions)
        .set({ status: 'failed', updatedAt: now })
        .where(and(eq(transactions.id, invoice.transactionId), eq(transactions.status, 'pending')));
    }
    const state = body.decision === 'activate' ? ('settled' as const) : ('failed' as const);
    await tx
      .update(paymentInvoices)
      .set({ state, decision: body.decision, decisionNote: note, decidedBy: admin.id, decidedAt: now, updatedAt: now })
      .where(eq(paymentInvoices.id, invoice.id));

    const [row] = await selectHeldPayments(tx, eq(paymentInvoices.id, invoice.id));
    const about = { invoiceId: invoice.id, providerInvoiceId: invoice.invoiceId, provider: invoice.provider, transactionId: invoice.transactionId };
    await recordAudit(tx, deps, {
      actorId: admin.id,
      action: body.decision === 'activate' ? 'payment.activated' : 'payment.rejected',
      targetType: 'user',
      targetId: invoice.userId,
      before: { ...about, state: invoice.state, reviewReason: invoice.reviewReason, rawStatus: invoice.rawStatus, depositStatus: deposit?.status },
      after: { ...about, state, depositStatus: row!.transactionStatus, ...(replaced ? { replacedPack: replaced } : {}), ...(note ? { note } : {}) },
    });

    if (body.decision === 'reject') {
      // The activation's mail is queued by the settlement, as on any settlement.
      const [member] = await tx.select().from(users).where(eq(users.id, invoice.userId));
      if (member && !member.deletedAt) {
        await enqueueMail(tx, deps, member.email, 'paymentRejected', {
          firstName: member.firstName,
          pack: packName(invoice.pack),
          amount: formatCentsFixed(invoice.amountCents),
          supportEmail: deps.config.contact.email,
          walletUrl: `${deps.config.publicUrl}/wallet`,
        });
      }
    }
    deps.logger.info(
      { ...about, decision: body.decision, reason: invoice.reviewReason, adminId: admin.id, replaced },
      body.decision === 'activate' ? 'held payment activated by an admin' : 'held payment rejected by an admin',
    );
    return row!;
  });
  deps.mailQueued();
  return toHeldPaymentDto(decided);
}

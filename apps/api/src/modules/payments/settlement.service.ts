import { and, eq, inArray } from 'drizzle-orm';
import { formatCentsFixed, type PackId, type PaidAmount } from '@terrafund/contracts';
import type { Executor } from '../../db/client';
import { memberships, paymentInvoices, paymentNotifications, transactions, users, type PaymentInvoiceRow } from '../../db/schema';
import type { Deps } from '../../deps';
import { endMembership, hasEnded, membershipEnd, newMembershipValues, packName } from '../memberships';
import { memberAccount, platformAccount, postEntry } from '../ledger';
import { enqueueMail } from '../mail';
import { notify } from '../notifications';
import type { ProviderName, ProviderStatus, ReviewReason } from './provider';

/**
 * The one place a provider's word changes a deposit (docs/product.md §5.4 Payment providers "The flow", step 4). The webhook and the
 * reconciliation job both come here with a status they have just read from the provider's API; the return
 * page never does.
 *
 * Exactly once. Everything happens in one database transaction that first locks the invoice row (SELECT …
 * FOR UPDATE): two deliveries of one notification, or a notification racing the reconciler on another server,
 * take turns, and the second finds the invoice already moved. The settlement's journal entry has the
 * idempotency key `deposit:<transaction id>` and the membership is unique per deposit, so even code that
 * bypassed the lock could not settle twice. The notification's dedupe row is written in the same transaction:
 * a handling that failed leaves no trace, so the provider's redelivery is handled again.
 *
 * Monotonic. An invoice leaves `pending` once. `settled` and `review` never change again here (a late
 * "Expired" after "Settled" is ignored); only an admin takes an invoice out of `review`
 * (payment-review.service.ts). An `expired` or `failed` invoice can only go to `review`, when the provider
 * reports money after all: the deposit has been failed and is not revived automatically. An invoice an admin
 * has decided is never held again: a rejected payment was refunded at the provider, and its later notifications
 * must not put it back in front of an admin.
 */
export type SettlementDeps = Pick<Deps, 'db' | 'clock' | 'secrets' | 'config' | 'logger' | 'mailQueued'>;

export type SettlementOutcome = 'settled' | 'expired' | 'failed' | 'review' | 'pending' | 'ignored' | 'duplicate';

/** A verified notification that led here, recorded once per provider and delivery key. */
type NotificationRecord = { provider: ProviderName; deliveryKey: string; type: string; invoiceId?: string };

type InvoiceState = PaymentInvoiceRow['state'];
type Transition =
  | { outcome: 'settled' | 'expired' | 'failed' | 'pending' | 'ignored' }
  | { outcome: 'review'; reason: ReviewReason };

/** What the provider's status does to an invoice in `current` state (see "Monotonic" above). */
function transitionFor(current: InvoiceState, status: ProviderStatus | null, decidedByAdmin = false): Transition {
  if (!status || decidedByAdmin) return { outcome: 'ignored' };
  if (current === 'pending') {
    if (status.state === 'review') return { outcome: 'review', reason: status.reviewReason ?? 'mismatch' };
    return { outcome: status.state };
  }
  if (current === 'expired' || current === 'failed') {
    // Money after we gave up on the invoice: never a pack by itself; an admin decides.
    if (status.state === 'settled') return { outcome: 'review', reason: 'late' };
    if (status.state === 'review') return { outcome: 'review', reason: status.reviewReason ?? 'late' };
  }
  return { outcome: 'ignored' };
}

type SettlementResult = { outcome: SettlementOutcome; invoice: PaymentInvoiceRow };

/**
 * Applies `status` (just read from the provider; null when there was no need to ask because the invoice is
 * closed) to the invoice `invoiceRowId`, recording `notification` when one triggered it.
 */
export async function applyProviderStatus(
  deps: SettlementDeps,
  invoiceRowId: string,
  status: ProviderStatus | null,
  notification?: NotificationRecord,
): Promise<SettlementResult> {
  const result = await deps.db.transaction(async (tx) => {
    const [invoice] = await tx.select().from(paymentInvoices).where(eq(paymentInvoices.id, invoiceRowId)).for('update');
    if (!invoice) throw new Error(`payment invoice ${invoiceRowId} does not exist`);
    const now = deps.clock.now();
    const transition = transitionFor(invoice.state, status, invoice.decision !== null);

    if (notification) {
      const [recorded] = await tx
        .insert(paymentNotifications)
        .values({
          provider: notification.provider,
          deliveryKey: notification.deliveryKey,
          type: notification.type,
          invoiceId: notification.invoiceId ?? invoice.invoiceId,
          outcome: transition.outcome,
          receivedAt: now,
        })
        .onConflictDoNothing()
        .returning({ key: paymentNotifications.deliveryKey });
      if (!recorded) return { outcome: 'duplicate' as const, invoice, mailed: false };
    }

    const about = { invoiceId: invoice.invoiceId, transactionId: invoice.transactionId };
    if (status?.paidUnknown) deps.logger.warn({ ...about, reason: status.paidUnknown }, 'payment provider did not say what arrived');
    const seen = {
      rawStatus: status?.rawStatus ?? invoice.rawStatus,
      // NOWPayments: the payment under the invoice, learnt from its notification or status.
      paymentId: invoice.paymentId ?? status?.paymentId ?? null,
      // What arrived, whenever the provider reports it: held payments show it beside what was asked.
      ...(status?.paid ? { paidAmount: status.paid.amount, paidCurrency: status.paid.currency } : {}),
      lastCheckedAt: now,
      updatedAt: now,
    };
    const update = async (change: Partial<typeof paymentInvoices.$inferInsert>) => {
      const [row] = await tx
        .update(paymentInvoices)
        .set({ ...seen, ...change })
        .where(eq(paymentInvoices.id, invoice.id))
        .returning();
      return row!;
    };

    switch (transition.outcome) {
      case 'settled': {
        const replaced = await settleDeposit(tx, deps, invoice, now);
        const settled = await update({ state: 'settled', closedAt: now, ...(status?.paymentId ? { paymentId: status.paymentId } : {}) });
        deps.logger.info({ ...about, pack: invoice.pack, replaced }, 'deposit settled, pack activated');
        return { outcome: transition.outcome, invoice: settled, mailed: true };
      }
      case 'expired':
      case 'failed': {
        await tx
          .update(transactions)
          .set({ status: 'failed', updatedAt: now })
          .where(and(eq(transactions.id, invoice.transactionId), eq(transactions.status, 'pending')));
        const closed = await update({ state: transition.outcome, closedAt: now });
        deps.logger.info({ ...about, rawStatus: seen.rawStatus }, `deposit ${transition.outcome}`);
        return { outcome: transition.outcome, invoice: closed, mailed: false };
      }
      case 'review': {
        // The deposit keeps its state (pending, or failed if we had already given up): no pack without an admin.
        const held = await update({ state: 'review', reviewReason: transition.reason, closedAt: invoice.closedAt ?? now });
        deps.logger.warn(
          { ...about, reason: transition.reason, rawStatus: seen.rawStatus, was: invoice.state },
          'payment needs an admin review',
        );
        return { outcome: transition.outcome, invoice: held, mailed: false };
      }
      case 'pending':
        return { outcome: transition.outcome, invoice: await update({}), mailed: false };
      case 'ignored':
        if (status && status.state !== invoice.state) {
          deps.logger.info({ ...about, state: invoice.state, reported: status.rawStatus }, 'provider status ignored: invoice is closed');
        }
        return { outcome: transition.outcome, invoice, mailed: false };
    }
  });
  if (result.mailed) deps.mailQueued();
  return { outcome: result.outcome, invoice: result.invoice };
}

export { packName } from '../memberships';

/** What arrived for an invoice, as last reported by its provider, for the admin's and the member's screens. */
export const paidOf = (invoice: Pick<PaymentInvoiceRow, 'paidAmount' | 'paidCurrency'>): PaidAmount | null =>
  invoice.paidAmount !== null && invoice.paidCurrency !== null ? { amount: invoice.paidAmount, currency: invoice.paidCurrency } : null;

/** The deposit states a settlement may complete. */
type SettleFrom = readonly ('pending' | 'failed')[];

/**
 * Completes the deposit, moves its price into the member's pack account, and makes the pack the member's
 * active membership, replacing the one they had ("Switch Plan"): the old price leaves member_pack for
 * platform_packs_retired, so member_pack always holds exactly the active pack's price; then queues the "pack
 * activated" mail. Answers the replaced pack, if any. Runs in the caller's transaction, which holds the
 * invoice row locked; the caller moves the invoice to `settled` and wakes the mail worker after commit.
 *
 * The provider's word settles only a pending deposit (`from` by default). An admin activating a held payment
 * may also complete one that expiry had failed meanwhile: the money arrived late, and failing a deposit moved
 * none, so there is nothing to undo first.
 */
export async function settleDeposit(
  tx: Executor,
  deps: SettlementDeps,
  invoice: PaymentInvoiceRow,
  now: Date,
  from: SettleFrom = ['pending'],
): Promise<PackId | undefined> {
  // One membership change at a time per member, whichever of their invoices settles.
  const [member] = await tx.select().from(users).where(eq(users.id, invoice.userId)).for('no key update');
  if (!member) throw new Error(`member ${invoice.userId} of invoice ${invoice.id} does not exist`);

  const packAccount = await memberAccount(tx, invoice.userId, 'member_pack');
  const received = await platformAccount(tx, 'platform_crypto_received');
  const [deposit] = await tx.select().from(transactions).where(eq(transactions.id, invoice.transactionId));
  const { entryId } = await postEntry(tx, deps, {
    kind: 'deposit',
    idempotencyKey: `deposit:${invoice.transactionId}`,
    description: deposit?.description ?? `${packName(invoice.pack)} pack purchase`,
    metadata: { transactionId: invoice.transactionId, provider: invoice.provider, invoiceId: invoice.invoiceId, pack: invoice.pack },
    lines: [
      { accountId: received, amountCents: -invoice.amountCents },
      { accountId: packAccount, amountCents: invoice.amountCents },
    ],
  });
  const [completed] = await tx
    .update(transactions)
    .set({ status: 'completed', entryId, updatedAt: now })
    .where(and(eq(transactions.id, invoice.transactionId), eq(transactions.type, 'deposit'), inArray(transactions.status, [...from])))
    .returning({ id: transactions.id });
  // An open invoice always has a pending deposit, and a completed one is never settled twice: anything else is
  // a bug, and this rolls the entry back.
  if (!completed) throw new Error(`deposit ${invoice.transactionId} of invoice ${invoice.id} is not ${from.join(' or ')}`);

  const [previous] = await tx
    .select()
    .from(memberships)
    .where(and(eq(memberships.userId, invoice.userId), eq(memberships.status, 'active')))
    .for('update');
  // A pack bought after the active one ended is a renewal: the old one is marked ended (its price retired)
  // rather than replaced, and the member's "has ended" mail goes now unless it went (modules/memberships/membership-end.service.ts).
  const renewal = previous !== undefined && hasEnded(previous, now, deps.config.payoutTime);
  if (previous && renewal) await endMembership(tx, deps, previous, member);
  if (previous && !renewal) {
    await tx.update(memberships).set({ status: 'replaced', replacedAt: now }).where(eq(memberships.id, previous.id));
    const retired = await platformAccount(tx, 'platform_packs_retired');
    await postEntry(tx, deps, {
      kind: 'pack_retired',
      idempotencyKey: `pack-retired:${previous.id}`,
      description: `${packName(previous.pack)} pack replaced by ${packName(invoice.pack)}`,
      metadata: { membershipId: previous.id, replacedByTransactionId: invoice.transactionId },
      lines: [
        { accountId: packAccount, amountCents: -previous.priceCents },
        { accountId: retired, amountCents: previous.priceCents },
      ],
    });
  }
  // The price is what was paid, so member_pack and the membership agree even if the price list changed since.
  const membership = { ...newMembershipValues(invoice.userId, invoice.pack, now, invoice.transactionId), priceCents: invoice.amountCents };
  await tx.insert(memberships).values(membership);

  if (!member.deletedAt) {
    // Keyed by the deposit: the same settlement reached twice (a redelivered notification) tells the member once.
    await notify(
      tx,
      deps,
      member.id,
      'payment.settled',
      {
        pack: packName(invoice.pack),
        amount: formatCentsFixed(invoice.amountCents),
        endsOn: membership.endsAt.toISOString().slice(0, 10),
        replacedPack: previous ? packName(previous.pack) : undefined,
      },
      `payment.settled:${invoice.transactionId}`,
    );
    await enqueueMail(tx, deps, member.email, 'packActivated', {
      firstName: member.firstName,
      pack: packName(invoice.pack),
      amount: formatCentsFixed(invoice.amountCents),
      endsOn: membershipEnd(membership, deps.config.payoutTime).lastPaidDay,
      replacedPack: previous && !renewal ? packName(previous.pack) : undefined,
      dashboardUrl: `${deps.config.publicUrl}/dashboard`,
    });
  }
  return renewal ? undefined : previous?.pack;
}

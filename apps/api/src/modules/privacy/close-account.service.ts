import { and, eq, gte, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { formatCentsUsd, messages, MIN_WITHDRAWAL_USD } from '@terrafund/contracts';
import type { Executor } from '../../db/client';
import {
  emailCodes,
  ledgerAccounts,
  memberships,
  notificationPreferences,
  notifications,
  passwordResetTokens,
  paymentInvoices,
  projects,
  sessions,
  transactions,
  twoFactorChallenges,
  twoFactorRecoveryCodes,
  users,
  type UserRow,
} from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { recordAudit } from '../audit';
import { verifyStepUp, type StepUp } from '../auth';
import { enqueueMail } from '../mail';
import { deleteExportsOf, type ExportDeps, type PrivacyDeps } from './data-export.service';

/** The e-mail a closed account keeps: unique, undeliverable (RFC 2606 `.invalid`), and frees the real address. */
export const tombstoneEmail = (userId: string) => `closed-${userId}@invalid`;
/** Stored as the password hash of a closed account: not an argon2 hash, so no password ever matches it. */
const NO_PASSWORD = '!closed';

/**
 * Why the account cannot be closed yet, or null: a wallet balance of at least the minimum withdrawal (it would be
 * given up: the member withdraws it first), a withdrawal not yet decided, an investment in a project that has not
 * ended (no end date, or one still ahead), or a pack payment still pending or held for review. A smaller balance
 * does not stop the closing: it is given up (the page says so before asking).
 */
export async function closingRefusal(tx: Executor, userId: string, now: Date): Promise<string | null> {
  const [wallet] = await tx
    .select({ balance: ledgerAccounts.balanceCents })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.userId, userId), eq(ledgerAccounts.kind, 'member_wallet')))
    .for('update');
  const balance = Number(wallet?.balance ?? 0);
  if (balance >= MIN_WITHDRAWAL_USD * 100) return messages.privacy.closeBalance(formatCentsUsd(balance));

  const [withdrawal] = await tx
    .select({ id: transactions.id })
    .from(transactions)
    .where(and(eq(transactions.userId, userId), eq(transactions.type, 'withdrawal'), eq(transactions.status, 'pending')))
    .limit(1);
  if (withdrawal) return messages.privacy.closePendingWithdrawal;

  const today = now.toISOString().slice(0, 10);
  const [investment] = await tx
    .select({ id: transactions.id })
    .from(transactions)
    .innerJoin(projects, eq(projects.id, transactions.projectId))
    .where(
      and(
        eq(transactions.userId, userId),
        eq(transactions.type, 'investment'),
        inArray(transactions.status, ['pending', 'completed']),
        or(isNull(projects.endDate), gte(projects.endDate, today)),
      ),
    )
    .limit(1);
  if (investment) return messages.privacy.closeOpenInvestment;

  const [payment] = await tx
    .select({ id: paymentInvoices.id })
    .from(paymentInvoices)
    .where(and(eq(paymentInvoices.userId, userId), inArray(paymentInvoices.state, ['pending', 'review'])))
    .limit(1);
  if (payment) return messages.privacy.closePaymentPending;
  return null;
}


/**
 * Closes the member's account (POST /api/users/close after the step-up, or `npm run admin -- --close`), in one
 * transaction with the member's row locked:
 * - refused (409, with the reason) while closingRefusal finds one;
 * - the e-mail becomes the tombstone at once, so the address can register again; name and phone are erased, no
 *   password opens the account any more, two-factor is removed; every session, code, token, notification,
 *   preference and data export is deleted (export files after the commit);
 * - the active pack stops (it pays no further dividend to a closed account);
 * - the member is mailed once at the old address; the audit log records `account.closed`.
 * What the law makes the platform keep stays: the ledger and the transactions, and the KYC record and documents,
 * which kyc-retention.service.ts deletes KYC_RETENTION_DAYS after closing.
 */
export async function closeAccount(deps: PrivacyDeps, user: UserRow, actor: { actorId: string | null }): Promise<{ message: string }> {
  const now = deps.clock.now();
  const { files, oldEmail } = await deps.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(users).where(eq(users.id, user.id)).for('no key update');
    if (!locked || locked.deletedAt) throw new AppError('NOT_FOUND', messages.users.notFound);
    if (locked.closedAt) throw new AppError('CONFLICT', messages.privacy.accountClosed);
    const refusal = await closingRefusal(tx, locked.id, now);
    if (refusal) throw new AppError('CONFLICT', refusal);

    // The mail is queued first: once the row carries the tombstone, the old address is nowhere else.
    await enqueueMail(tx, deps, locked.email, 'accountClosed', { firstName: locked.firstName, supportEmail: deps.config.contact.email });
    await tx
      .update(users)
      .set({
        email: tombstoneEmail(locked.id),
        firstName: 'Closed',
        lastName: 'account',
        phone: '',
        passwordHash: NO_PASSWORD,
        twoFactorSecret: null,
        twoFactorPendingSecret: null,
        twoFactorEnabledAt: null,
        twoFactorLastStep: null,
        closedAt: now,
        updatedAt: now,
      })
      .where(eq(users.id, locked.id));
    await tx.delete(sessions).where(eq(sessions.userId, locked.id));
    await tx.delete(notifications).where(eq(notifications.userId, locked.id));
    await tx.delete(notificationPreferences).where(eq(notificationPreferences.userId, locked.id));
    await tx.delete(emailCodes).where(eq(emailCodes.userId, locked.id));
    await tx.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, locked.id));
    await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, locked.id));
    await tx.delete(twoFactorChallenges).where(eq(twoFactorChallenges.userId, locked.id));
    // The pack ends now: its window closes at this instant (never before it started), so no later day is paid.
    await tx
      .update(memberships)
      .set({ status: 'ended', endsAt: sql`greatest(${now.toISOString()}::timestamptz, ${memberships.startedAt} + interval '1 millisecond')` })
      .where(and(eq(memberships.userId, locked.id), eq(memberships.status, 'active'), lte(memberships.startedAt, now)));
    const exportFiles = await deleteExportsOf(tx, locked.id);
    await recordAudit(tx, deps, {
      actorId: actor.actorId,
      action: 'account.closed',
      targetType: 'user',
      targetId: locked.id,
      before: { closed: false },
      after: { closed: true, email: tombstoneEmail(locked.id), kycKeptUntil: new Date(now.getTime() + deps.config.kycRetentionDays * 86_400_000).toISOString() },
    });
    return { files: exportFiles, oldEmail: locked.email };
  });
  deps.mailQueued();
  for (const key of files) await deps.storage.delete(key).catch((error: unknown) => deps.logger.warn({ err: error }, 'export file not deleted'));
  deps.logger.info({ userId: user.id, hadEmail: oldEmail !== '' }, 'account closed');
  return { message: messages.privacy.closed };
}

/** POST /api/users/close: the step-up (password, or the 2FA code), then closeAccount by the member themself. */
export async function closeOwnAccount(deps: ExportDeps, user: UserRow, ip: string, body: StepUp) {
  await verifyStepUp(deps, user, ip, body);
  return closeAccount(deps, user, { actorId: user.id });
}

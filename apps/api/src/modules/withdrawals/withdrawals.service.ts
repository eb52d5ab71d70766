import { and, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import {
  explorerAddressUrl,
  explorerTxUrl,
  formatCentsFixed,
  isValidTxHash,
  messages,
  usdToCents,
  UUID_PATTERN,
  withdrawalAsset,
  type AdminTransactionDetail,
  type createWithdrawalBody,
  type TimelineStep,
  type Transaction,
  type WithdrawalAddress,
  type withdrawalDecisionBody,
} from '@terrafund/contracts';
import type { z } from 'zod';
import {
  transactions,
  users,
  withdrawalAddresses,
  withdrawalApprovals,
  withdrawals,
  type TransactionRow,
  type UserRow,
  type WithdrawalRow,
} from '../../db/schema';
import type { Executor } from '../../db/client';
import { lockMember } from '../../db/member-lock';
import type { Deps } from '../../deps';
import { AppError } from '../../lib/app-error';
import { randomToken } from '../../lib/crypto';
import { recordAudit } from '../audit';
import { verifyStepUp } from '../auth';
import { InsufficientBalanceError, memberAccount, platformAccount, postEntry } from '../ledger';
import { enqueueMail } from '../mail';
import { notify } from '../notifications';
import { applySnapshot, claimLease, dispatchPayout, releaseLease } from './payouts.service';
import {
  approvalsOf,
  assetOf,
  completeWithdrawal,
  failWithdrawal,
  lockWithdrawal,
  payoutOf,
  reasons,
  timelineOf,
  toWithdrawalDto,
} from './withdrawals.store';

/** Money out: a member's withdrawal request, its confirmation and cancellation, and admins' decisions (issue 32). */

export const CONFIRM_TTL_MINUTES = 30;

const w = messages.withdrawals;
const notFound = () => new AppError('NOT_FOUND', messages.wallet.transactionNotFound);
const conflict = (message: string) => new AppError('CONFLICT', message);
const mailTime = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * A withdrawal request: the coin offered, the address checked for it (by the schema), approved KYC, the step-up,
 * then in one database transaction with the member's row locked: the daily limit, the balance, the transaction and
 * its withdrawal row, and the hold of the whole amount. To a confirmed address of the member's book it waits for an
 * admin; to a new one it waits for the mailed link first.
 */
export async function requestWithdrawal(deps: Deps, user: UserRow, body: z.output<typeof createWithdrawalBody>, ip: string) {
  const settings = deps.config.withdrawals;
  if (!settings.assets.includes(body.asset)) {
    throw new AppError('VALIDATION_ERROR', w.assetInvalid, { fields: { asset: w.assetInvalid } });
  }
  if (user.kycStatus !== 'approved' || !user.kycVerified) throw new AppError('FORBIDDEN', messages.wallet.kycRequired);
  await verifyStepUp(deps, user, ip, { password: body.password, code: body.code });

  const cents = usdToCents(body.amount);
  const asset = withdrawalAsset(body.asset);
  const address = body.walletAddress;
  try {
    const { row, details } = await deps.db.transaction(async (tx) => {
      const now = deps.clock.now();
      // One request at a time per member: the limit and the balance are read and changed under this lock.
      await lockMember(tx, user.id);
      const [recent] = await tx
        .select({ total: sql<string>`coalesce(sum(${transactions.amountCents}), 0)::text` })
        .from(transactions)
        .where(
          and(
            eq(transactions.userId, user.id),
            eq(transactions.type, 'withdrawal'),
            inArray(transactions.status, ['pending', 'completed']),
            gt(transactions.createdAt, new Date(now.getTime() - 24 * 3600_000)),
          ),
        );
      if (Number(recent?.total ?? 0) + cents > settings.dailyLimitCents) {
        throw new AppError('VALIDATION_ERROR', w.dailyLimitReached, { fields: { amount: w.dailyLimitReached } });
      }
      const [booked] = await tx
        .select()
        .from(withdrawalAddresses)
        .where(and(eq(withdrawalAddresses.userId, user.id), eq(withdrawalAddresses.asset, body.asset), eq(withdrawalAddresses.address, address)));

      const [created] = await tx
        .insert(transactions)
        .values({
          userId: user.id,
          type: 'withdrawal',
          amountCents: cents,
          status: 'pending',
          description: `Withdrawal of ${formatCentsFixed(cents)} in ${asset.name} (${asset.network}) to ${address}`,
          walletAddress: address,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      const token = booked ? undefined : randomToken(32);
      const [details] = await tx
        .insert(withdrawals)
        .values({
          transactionId: created!.id,
          userId: user.id,
          asset: body.asset,
          address,
          feeCents: settings.feeCents,
          stage: booked ? 'awaiting_approval' : 'awaiting_confirmation',
          confirmTokenHash: token ? deps.secrets.hash(token) : null,
          confirmExpiresAt: token ? new Date(now.getTime() + CONFIRM_TTL_MINUTES * 60_000) : null,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      const wallet = await memberAccount(tx, user.id, 'member_wallet');
      const paidOut = await platformAccount(tx, 'platform_withdrawals_paid_out');
      const { entryId } = await postEntry(tx, deps, {
        kind: 'withdrawal_hold',
        idempotencyKey: `withdrawal-hold:${created!.id}`,
        description: created!.description,
        metadata: { transactionId: created!.id, asset: body.asset },
        lines: [
          { accountId: wallet, amountCents: -cents },
          { accountId: paidOut, amountCents: cents },
        ],
      });
      const [withEntry] = await tx.update(transactions).set({ entryId }).where(eq(transactions.id, created!.id)).returning();
      if (booked) await tx.update(withdrawalAddresses).set({ lastUsedAt: now }).where(eq(withdrawalAddresses.id, booked.id));
      // In the same transaction: the member hears of every withdrawal that holds money, and of no other.
      await notify(tx, deps, user.id, 'withdrawal.requested', { amount: formatCentsFixed(cents), address }, `withdrawal.requested:${created!.id}`);
      if (token) {
        await enqueueMail(tx, deps, user.email, 'withdrawalConfirm', {
          firstName: user.firstName,
          amount: formatCentsFixed(cents),
          coin: `${asset.name} (${asset.network})`,
          address,
          requestedAt: mailTime(now),
          confirmUrl: `${deps.config.publicUrl}/wallet/withdrawals/confirm?token=${encodeURIComponent(token)}`,
          minutes: CONFIRM_TTL_MINUTES,
          supportEmail: deps.config.contact.email,
        });
      } else {
        await enqueueMail(tx, deps, user.email, 'withdrawalRequested', {
          firstName: user.firstName,
          amount: formatCentsFixed(cents),
          address,
          requestedAt: mailTime(now),
          supportEmail: deps.config.contact.email,
          walletUrl: `${deps.config.publicUrl}/wallet`,
        });
      }
      return { row: withEntry!, details: details! };
    });
    deps.mailQueued();
    return toWithdrawalDto(row, details);
  } catch (error) {
    if (error instanceof InsufficientBalanceError) {
      throw new AppError('VALIDATION_ERROR', messages.wallet.insufficientBalance, {
        fields: { amount: messages.wallet.insufficientBalance },
      });
    }
    throw error;
  }
}

/**
 * The mailed link of a first withdrawal to an address: once, within 30 minutes. Confirmed, the withdrawal waits for
 * an admin and the address joins the member's book. Expired, the withdrawal fails and its amount returns.
 */
export async function confirmWithdrawal(deps: Deps, token: string) {
  const invalid = () => new AppError('VALIDATION_ERROR', w.tokenInvalid, { fields: { token: w.tokenInvalid } });
  const hash = deps.secrets.hash(token);
  const outcome = await deps.db.transaction(async (tx) => {
    const [found] = await tx.select({ id: withdrawals.transactionId }).from(withdrawals).where(eq(withdrawals.confirmTokenHash, hash));
    if (!found) return { kind: 'invalid' as const };
    const locked = await lockWithdrawal(tx, found.id);
    if (!locked?.w || locked.w.stage !== 'awaiting_confirmation' || locked.w.confirmTokenHash !== hash) return { kind: 'invalid' as const };
    const { row } = locked;
    const now = deps.clock.now();
    if (!locked.w.confirmExpiresAt || locked.w.confirmExpiresAt.getTime() <= now.getTime()) {
      await failWithdrawal(tx, deps, row, { stage: 'failed', reason: reasons.confirmationExpired });
      return { kind: 'expired' as const };
    }
    const [details] = await tx
      .update(withdrawals)
      .set({ stage: 'awaiting_approval', confirmTokenHash: null, confirmedAt: now, updatedAt: now })
      .where(eq(withdrawals.transactionId, row.id))
      .returning();
    await tx
      .insert(withdrawalAddresses)
      .values({ userId: row.userId, asset: details!.asset!, address: details!.address, confirmedAt: now, lastUsedAt: now })
      .onConflictDoUpdate({
        target: [withdrawalAddresses.userId, withdrawalAddresses.asset, withdrawalAddresses.address],
        set: { lastUsedAt: now },
      });
    const [updated] = await tx.update(transactions).set({ updatedAt: now }).where(eq(transactions.id, row.id)).returning();
    await recordAudit(tx, deps, {
      actorId: row.userId,
      action: 'withdrawal.confirmed',
      targetType: 'user',
      targetId: row.userId,
      before: { transactionId: row.id, stage: 'awaiting_confirmation' },
      after: { transactionId: row.id, stage: 'awaiting_approval', asset: details!.asset, address: details!.address },
    });
    return { kind: 'confirmed' as const, row: updated!, details: details! };
  });
  if (outcome.kind === 'invalid') throw invalid();
  if (outcome.kind === 'expired') {
    deps.mailQueued();
    throw new AppError('VALIDATION_ERROR', w.tokenExpired, { fields: { token: w.tokenExpired } });
  }
  return toWithdrawalDto(outcome.row, outcome.details);
}

type RefusalCheck = 'now' | 'ask-provider';

/**
 * Whether a withdrawal approved but not yet at the provider may still be refused (cancelled or failed) without
 * a payout slipping out: at once when nothing was ever asked of the provider; after an attempt whose answer may
 * have been lost, only once the provider says it has no payout for it (asked under the lease).
 */
function refusalCheck(w: WithdrawalRow, now: Date): RefusalCheck | 'busy' {
  if (w.leaseUntil && w.leaseUntil.getTime() > now.getTime()) return 'busy';
  return w.attempts === 0 && !w.payoutId && !w.payoutPullPaymentId ? 'now' : 'ask-provider';
}

/**
 * Holds the dispatch (lease) and asks the provider whether a payout exists for the withdrawal. Answers true when
 * there is none (the caller may refuse it; the lease stays ours until it does), false when one exists (recorded:
 * the withdrawal is sent) or the provider cannot tell.
 */
async function providerHasNoPayout(deps: Deps, id: string): Promise<boolean> {
  const provider = deps.payoutProvider;
  if (!provider) return true;
  const claimed = await claimLease(deps, id);
  if (!claimed) return false;
  try {
    const found = await provider.find(id);
    if (found) {
      await applySnapshot(deps, id, found);
      return false;
    }
    return true;
  } catch (error) {
    deps.logger.warn({ err: error, withdrawalId: id }, 'payout provider unreachable while checking a withdrawal before refusing it');
    await releaseLease(deps, id);
    return false;
  }
}

/**
 * The member cancels their own pending withdrawal before it is handed to a provider: the whole amount back at
 * once, status failed, timeline cancelled.
 */
export async function cancelWithdrawal(deps: Deps, user: UserRow, id: string): Promise<Transaction> {
  if (!UUID_PATTERN.test(id)) throw notFound();
  const attempt = async (allowAsk: boolean): Promise<Transaction | 'ask'> => {
    const result = await deps.db.transaction(async (tx) => {
      const locked = await lockWithdrawal(tx, id);
      if (!locked || locked.row.userId !== user.id || locked.row.type !== 'withdrawal') throw notFound();
      const { row, w: details } = locked;
      if (!details || row.status !== 'pending') throw conflict(w.notCancellable);
      const now = deps.clock.now();
      if (details.stage === 'waiting_for_provider') {
        // The second pass holds the lease itself, and the provider said it has no payout for this withdrawal.
        if (allowAsk) {
          const check = refusalCheck(details, now);
          if (check === 'busy') throw conflict(w.notCancellable);
          if (check === 'ask-provider') return 'ask' as const;
        }
      } else if (details.stage !== 'awaiting_confirmation' && details.stage !== 'awaiting_approval') {
        throw conflict(w.notCancellable);
      }
      const cancelled = await failWithdrawal(tx, deps, row, { stage: 'cancelled', reason: reasons.cancelledByMember, mail: false });
      await recordAudit(tx, deps, {
        actorId: user.id,
        action: 'withdrawal.cancelled',
        targetType: 'user',
        targetId: user.id,
        before: { transactionId: row.id, stage: details.stage },
        after: { transactionId: row.id, stage: 'cancelled' },
      });
      const [after] = await tx.select().from(withdrawals).where(eq(withdrawals.transactionId, id));
      return toWithdrawalDto(cancelled, after);
    });
    deps.mailQueued();
    return result;
  };
  const first = await attempt(true);
  if (first !== 'ask') return first;
  if (!(await providerHasNoPayout(deps, id))) throw conflict(w.notCancellable);
  const second = await attempt(false);
  if (second === 'ask') throw conflict(w.notCancellable);
  return second;
}

export type Decision = { status: 200 | 202; transaction: Transaction };

/**
 * An admin's decision on a withdrawal. `failed` refuses it at once (the amount back). `completed` is an approval:
 * at or above WITHDRAWAL_DUAL_APPROVAL_USD two different admins must approve (the first answers 202 and sends
 * nothing); enough approvals hand it to the payout provider right after the commit, or with PAYOUT_PROVIDER=manual
 * complete it with the admin's transaction hash. Once approved it is the provider's: later decisions are 409. The row
 * lock lets one of simultaneous decisions through at a time.
 */
export async function decideWithdrawal(deps: Deps, admin: UserRow, id: string, body: z.output<typeof withdrawalDecisionBody>): Promise<Decision> {
  if (!UUID_PATTERN.test(id)) throw notFound();
  const settings = deps.config.withdrawals;
  const decide = async () => {
    const result = await deps.db.transaction(async (tx) => {
      const locked = await lockWithdrawal(tx, id);
      if (!locked) throw notFound();
      const { row, w: details } = locked;
      if (row.type !== 'withdrawal' || row.status !== 'pending' || !details) throw conflict(messages.wallet.withdrawalNotPending);
      if (details.stage === 'awaiting_confirmation') throw conflict(w.awaitingConfirmation);
      const now = deps.clock.now();
      const audit = (action: string, after: Record<string, unknown>) =>
        recordAudit(tx, deps, {
          actorId: admin.id,
          action,
          targetType: 'user',
          targetId: row.userId,
          before: { transactionId: row.id, status: row.status, stage: details.stage },
          after: { transactionId: row.id, ...after },
        });

      if (body.status === 'failed') {
        // Once approved, the decision is taken: it is the provider's now (the member may still cancel it while the
        // provider has not taken it).
        if (details.stage !== 'awaiting_approval') throw conflict(messages.wallet.withdrawalNotPending);
        const reason = body.reason || reasons.refusedByAdmin;
        const failed = await failWithdrawal(tx, deps, row, { stage: 'failed', reason, decidedBy: admin.id });
        await audit('withdrawal.failed', { status: 'failed', reason });
        return { status: 200 as const, row: failed, dispatch: false };
      }

      const [mine] = await tx
        .select({ id: withdrawalApprovals.id })
        .from(withdrawalApprovals)
        .where(and(eq(withdrawalApprovals.transactionId, id), eq(withdrawalApprovals.adminId, admin.id)));
      if (mine) throw conflict(w.alreadyApproved);
      if (details.stage !== 'awaiting_approval') throw conflict(messages.wallet.withdrawalNotPending);
      const [{ count } = { count: 0 }] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(withdrawalApprovals)
        .where(eq(withdrawalApprovals.transactionId, id));
      const needed = row.amountCents >= settings.dualApprovalCents ? 2 : 1;
      const enough = Number(count) + 1 >= needed;
      const asset = assetOf(details);
      const manual = !deps.payoutProvider || !asset;
      const txHash = body.txHash?.trim();
      if (manual && enough) {
        const valid = txHash && (asset ? isValidTxHash(asset, txHash) : txHash.length > 0);
        if (!valid) {
          const message = asset ? w.invalidTxHash(withdrawalAsset(asset).name) : w.txHashInvalid;
          throw new AppError('VALIDATION_ERROR', message, { fields: { txHash: message } });
        }
      }
      const inserted = await tx
        .insert(withdrawalApprovals)
        .values({ transactionId: id, adminId: admin.id, createdAt: now })
        .onConflictDoNothing()
        .returning({ id: withdrawalApprovals.id });
      if (inserted.length === 0) throw conflict(w.alreadyApproved);
      if (!enough) {
        await tx.update(transactions).set({ updatedAt: now }).where(eq(transactions.id, id));
        await audit('withdrawal.approved', { status: 'pending', stage: 'awaiting_approval', approvals: Number(count) + 1, needed });
        return { status: 202 as const, row, dispatch: false };
      }
      const [approved] = await tx
        .update(transactions)
        .set({ decidedBy: admin.id, decidedAt: now, updatedAt: now })
        .where(eq(transactions.id, id))
        .returning();
      await tx
        .update(withdrawals)
        .set({ approvedAt: now, updatedAt: now, ...(manual ? {} : { stage: 'waiting_for_provider' as const, nextAttemptAt: null, attempts: 0 }) })
        .where(eq(withdrawals.transactionId, id));
      if (manual) {
        const completed = await completeWithdrawal(tx, deps, approved!, details, { txHash: txHash!, decidedBy: admin.id });
        await audit('withdrawal.completed', { status: 'completed', txHash });
        return { status: 200 as const, row: completed, dispatch: false };
      }
      await audit('withdrawal.completed', { status: 'pending', stage: 'waiting_for_provider', provider: deps.payoutProvider!.name });
      return { status: 200 as const, row: approved!, dispatch: true };
    });
    deps.mailQueued();
    return result;
  };

  const result = await decide();
  if (result.dispatch) {
    try {
      await dispatchPayout(deps, id);
    } catch (error) {
      // The job retries it; the decision itself stands.
      deps.logger.error({ err: error, withdrawalId: id }, 'payout dispatch after approval failed');
    }
  }
  const [row] = await deps.db.select().from(transactions).where(eq(transactions.id, id));
  const [details] = await deps.db.select().from(withdrawals).where(eq(withdrawals.transactionId, id));
  return { status: result.status, transaction: toWithdrawalDto(row!, details, await approvalsOf(deps.db, id)) };
}

/** A withdrawal's timeline, for its owner or an admin (no admin's e-mail in it). */
export async function withdrawalTimeline(deps: Pick<Deps, 'db'>, row: TransactionRow): Promise<TimelineStep[]> {
  const [details] = await deps.db.select().from(withdrawals).where(eq(withdrawals.transactionId, row.id));
  return timelineOf(row, details, details ? await approvalsOf(deps.db, row.id) : []);
}

/** The transaction detail of a withdrawal: its own fields and its timeline. */
export async function withdrawalDetail(deps: Pick<Deps, 'db'>, row: TransactionRow) {
  const [details] = await deps.db.select().from(withdrawals).where(eq(withdrawals.transactionId, row.id));
  const approvals = details ? await approvalsOf(deps.db, row.id) : [];
  return { ...toWithdrawalDto(row, details), timeline: timelineOf(row, details, approvals) };
}

/** GET /api/admin/transactions/{id}: what an admin needs to follow and decide a withdrawal. */
export async function adminTransactionDetail(deps: Deps, id: string): Promise<AdminTransactionDetail> {
  if (!UUID_PATTERN.test(id)) throw notFound();
  const [row] = await deps.db.select().from(transactions).where(eq(transactions.id, id));
  if (!row) throw notFound();
  const [member] = await deps.db.select().from(users).where(eq(users.id, row.userId));
  const [details] = row.type === 'withdrawal' ? await deps.db.select().from(withdrawals).where(eq(withdrawals.transactionId, id)) : [];
  const approvals = details ? await approvalsOf(deps.db, id) : [];
  const asset = details ? assetOf(details) : undefined;
  return {
    ...toWithdrawalDto(row, details, approvals),
    approvals,
    timeline: row.type === 'withdrawal' ? timelineOf(row, details, approvals) : [],
    payout: details ? payoutOf(details, row.txHash) : null,
    lastError: details?.lastError ?? null,
    member: { name: member ? `${member.firstName} ${member.lastName}`.trim() : '', email: member?.email ?? '' },
    explorer: {
      address: asset && details ? explorerAddressUrl(asset, details.address) : null,
      transaction: asset && row.txHash ? explorerTxUrl(asset, row.txHash) : null,
    },
  };
}

// Address book -----------------------------------------------------------------------------------------------

export async function listWithdrawalAddresses(deps: Deps, user: UserRow): Promise<WithdrawalAddress[]> {
  return withdrawalAddressesOf(deps.db, user.id);
}

/** A member's address book, newest first (also what their data export holds). */
export async function withdrawalAddressesOf(db: Executor, userId: string): Promise<WithdrawalAddress[]> {
  const rows = await db
    .select()
    .from(withdrawalAddresses)
    .where(eq(withdrawalAddresses.userId, userId))
    .orderBy(desc(withdrawalAddresses.confirmedAt), desc(withdrawalAddresses.id));
  return rows.map((r) => ({
    id: r.id,
    asset: r.asset,
    address: r.address,
    confirmedAt: r.confirmedAt.toISOString(),
    lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
  }));
}

export async function deleteWithdrawalAddress(deps: Deps, user: UserRow, id: string): Promise<void> {
  const missing = new AppError('NOT_FOUND', w.addressNotFound);
  if (!UUID_PATTERN.test(id)) throw missing;
  const deleted = await deps.db
    .delete(withdrawalAddresses)
    .where(and(eq(withdrawalAddresses.id, id), eq(withdrawalAddresses.userId, user.id)))
    .returning({ id: withdrawalAddresses.id });
  if (deleted.length === 0) throw missing;
}


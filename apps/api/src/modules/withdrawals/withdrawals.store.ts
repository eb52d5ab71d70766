import { asc, eq, inArray, sql } from 'drizzle-orm';
import {
  centsToUsd,
  formatCentsFixed,
  messages,
  withdrawalAsset,
  isWithdrawalAssetId,
  type TimelineStep,
  type Transaction,
  type WithdrawalApproval,
  type WithdrawalPayout,
} from '@terrafund/contracts';
import { preparedStatement, type Database, type Executor } from '../../db/client';
import {
  transactions,
  users,
  withdrawalApprovals,
  withdrawals,
  type TransactionRow,
  type WithdrawalRow,
} from '../../db/schema';
import type { Deps } from '../../deps';
import { memberAccount, platformAccount, postEntry } from '../ledger';
import { enqueueMail } from '../mail';
import { notify } from '../notifications';
import { toTransactionDto } from '../transactions';

/**
 * What the withdrawal flow shares between its steps (request, confirmation, decisions, the payout's tracking):
 * the answer's fields, the timeline, and the two ways a withdrawal ends (completed with its fee, or failed with
 * the whole amount back), each in the caller's database transaction, under its row lock.
 */

export type Stage = WithdrawalRow['stage'];

/** Stages after which nothing changes. */
export const FINAL_STAGES: ReadonlySet<Stage> = new Set(['completed', 'failed', 'cancelled']);

export const assetOf = (row: Pick<WithdrawalRow, 'asset'>) => (isWithdrawalAssetId(row.asset) ? row.asset : undefined);

export function payoutOf(w: WithdrawalRow, txHash: string | null): WithdrawalPayout | null {
  if (!w.payoutProvider) return null;
  return {
    provider: w.payoutProvider,
    id: w.payoutId,
    state: w.payoutState,
    cryptoAmount: w.payoutCryptoAmount,
    cryptoCurrency: w.payoutCryptoCurrency,
    txHash,
  };
}

/** The withdrawal's own fields of the answer (contracts transactionSchema). */
export function withdrawalFields(w: WithdrawalRow, txHash: string | null, amountCents: number) {
  const asset = assetOf(w);
  return {
    asset: w.asset,
    network: asset ? withdrawalAsset(asset).network : null,
    fee: centsToUsd(w.feeCents),
    receiveAmount: centsToUsd(amountCents - w.feeCents),
    awaitingConfirmation: w.stage === 'awaiting_confirmation',
    stage: w.stage,
    payout: payoutOf(w, txHash),
  };
}

export function toWithdrawalDto(row: TransactionRow, w: WithdrawalRow | undefined, approvals?: WithdrawalApproval[]): Transaction {
  return {
    ...toTransactionDto(row),
    ...(w ? withdrawalFields(w, row.txHash, row.amountCents) : {}),
    ...(approvals ? { approvals } : {}),
  };
}

export async function approvalsOf(db: Executor, transactionId: string): Promise<WithdrawalApproval[]> {
  const rows = await db
    .select({ email: users.email, at: withdrawalApprovals.createdAt })
    .from(withdrawalApprovals)
    .innerJoin(users, eq(users.id, withdrawalApprovals.adminId))
    .where(eq(withdrawalApprovals.transactionId, transactionId))
    .orderBy(asc(withdrawalApprovals.createdAt), asc(withdrawalApprovals.id));
  return rows.map((r) => ({ adminEmail: r.email, at: r.at.toISOString() }));
}

/**
 * The withdrawal rows of a list's withdrawals, one statement prepared once per database: a member's history
 * page asks for it on every load that shows a withdrawal (docs/performance.md, GET /api/transactions), and
 * building its SQL each time cost more than the rest of the route's Drizzle work.
 */
const withdrawalsOf = preparedStatement((db: Database) =>
  db
    .select()
    .from(withdrawals)
    .where(sql`${withdrawals.transactionId} = any(${sql.placeholder('ids')}::uuid[])`)
    .prepare('withdrawals_of_transactions'),
);

async function detailsOf(db: Database, ids: string[]): Promise<Map<string, WithdrawalRow>> {
  if (ids.length === 0) return new Map();
  const rows = await withdrawalsOf(db).execute({ ids });
  return new Map(rows.map((r) => [r.transactionId, r]));
}

/** Transactions with their withdrawal fields added, for lists (the member's history, the admin's). */
export async function withWithdrawalFields<T extends { _id: string; type: string; txHash: string | null; amount: number }>(
  db: Database,
  items: T[],
): Promise<T[]> {
  const details = await detailsOf(
    db,
    items.filter((t) => t.type === 'withdrawal').map((t) => t._id),
  );
  return items.map((item) => {
    const w = details.get(item._id);
    return w ? { ...item, ...withdrawalFields(w, item.txHash, Math.round(item.amount * 100)) } : item;
  });
}

/** The admin list's rows: the withdrawal fields, and how many admins approved each withdrawal so far. */
export async function withAdminWithdrawalFields<T extends { _id: string; type: string; txHash: string | null; amount: number }>(
  db: Database,
  items: T[],
): Promise<T[]> {
  const enriched = await withWithdrawalFields(db, items);
  const ids = enriched.filter((t) => t.type === 'withdrawal').map((t) => t._id);
  if (ids.length === 0) return enriched;
  const counts = await db
    .select({ id: withdrawalApprovals.transactionId, n: sql<number>`count(*)::int` })
    .from(withdrawalApprovals)
    .where(inArray(withdrawalApprovals.transactionId, ids))
    .groupBy(withdrawalApprovals.transactionId);
  const byId = new Map(counts.map((c) => [c.id, Number(c.n)]));
  return enriched.map((t) => (t.type === 'withdrawal' ? { ...t, approvalsCount: byId.get(t._id) ?? 0 } : t));
}

/**
 * What a withdrawal went through: requested, confirmed (a new address), one approved per approval, sent to the
 * provider, then completed (with its hash), failed or cancelled (with a reason).
 */
export function timelineOf(row: TransactionRow, w: WithdrawalRow | undefined, approvals: WithdrawalApproval[]): TimelineStep[] {
  const steps: TimelineStep[] = [{ status: 'requested', at: row.createdAt.toISOString() }];
  if (!w) {
    if (row.status !== 'pending') {
      const at = (row.decidedAt ?? row.updatedAt).toISOString();
      steps.push(row.status === 'completed' ? { status: 'completed', at, ...(row.txHash ? { txHash: row.txHash } : {}) } : { status: 'failed', at });
    }
    return steps;
  }
  if (w.confirmedAt) steps.push({ status: 'confirmed', at: w.confirmedAt.toISOString() });
  for (const approval of approvals) steps.push({ status: 'approved', at: approval.at });
  if (w.sentAt) steps.push({ status: 'sent', at: w.sentAt.toISOString() });
  const at = (w.finishedAt ?? row.decidedAt ?? row.updatedAt).toISOString();
  if (w.stage === 'completed') steps.push({ status: 'completed', at, ...(row.txHash ? { txHash: row.txHash } : {}) });
  if (w.stage === 'failed') steps.push({ status: 'failed', at, ...(w.reason ? { reason: w.reason } : {}) });
  if (w.stage === 'cancelled') steps.push({ status: 'cancelled', at, ...(w.reason ? { reason: w.reason } : {}) });
  return steps;
}

/** The transaction and its withdrawal row, both locked (always in this order: no deadlock between steps). */
export async function lockWithdrawal(tx: Executor, id: string): Promise<{ row: TransactionRow; w: WithdrawalRow | undefined } | undefined> {
  const [row] = await tx.select().from(transactions).where(eq(transactions.id, id)).for('update');
  if (!row) return undefined;
  const [w] = await tx.select().from(withdrawals).where(eq(withdrawals.transactionId, id)).for('update');
  return { row, w };
}

/**
 * Ends a withdrawal as failed (or cancelled) in the caller's transaction: the whole amount back to the wallet
 * (idempotent by key), the status failed, the reason on the timeline, the member mailed and notified.
 */
export async function failWithdrawal(
  tx: Executor,
  deps: Deps,
  row: TransactionRow,
  options: { stage: 'failed' | 'cancelled'; reason: string; decidedBy?: string; mail?: boolean },
): Promise<TransactionRow> {
  const now = deps.clock.now();
  const wallet = await memberAccount(tx, row.userId, 'member_wallet');
  const paidOut = await platformAccount(tx, 'platform_withdrawals_paid_out');
  await postEntry(tx, deps, {
    kind: 'withdrawal_refund',
    idempotencyKey: `withdrawal-refund:${row.id}`,
    description: `Refund of ${options.stage} withdrawal ${row.id}`,
    metadata: { transactionId: row.id, reason: options.reason },
    lines: [
      { accountId: wallet, amountCents: row.amountCents },
      { accountId: paidOut, amountCents: -row.amountCents },
    ],
  });
  const [updated] = await tx
    .update(transactions)
    .set({ status: 'failed', txHash: null, updatedAt: now, decidedAt: now, ...(options.decidedBy ? { decidedBy: options.decidedBy } : {}) })
    .where(eq(transactions.id, row.id))
    .returning();
  await tx
    .update(withdrawals)
    .set({
      stage: options.stage,
      reason: options.reason,
      finishedAt: now,
      confirmTokenHash: null,
      leaseUntil: null,
      nextAttemptAt: null,
      nextPollAt: null,
      updatedAt: now,
    })
    .where(eq(withdrawals.transactionId, row.id));
  await tellMember(tx, deps, row, { completed: false, reason: options.reason, mail: options.mail !== false });
  return updated!;
}

/** The member hears how a withdrawal ended: the bell always, the mail unless the caller mails otherwise. */
async function tellMember(
  tx: Executor,
  deps: Deps,
  row: TransactionRow,
  outcome: { completed: boolean; txHash?: string; reason?: string; mail: boolean },
) {
  const [member] = await tx.select().from(users).where(eq(users.id, row.userId));
  if (!member) return;
  const amount = formatCentsFixed(row.amountCents);
  if (outcome.completed) {
    await notify(tx, deps, member.id, 'withdrawal.completed', { amount, txHash: outcome.txHash }, `withdrawal.completed:${row.id}`);
  } else {
    await notify(tx, deps, member.id, 'withdrawal.failed', { amount }, `withdrawal.failed:${row.id}`);
  }
  if (!outcome.mail) return;
  await enqueueMail(tx, deps, member.email, 'withdrawalDecided', {
    firstName: member.firstName,
    amount,
    completed: outcome.completed,
    ...(outcome.completed ? { txHash: outcome.txHash } : { reason: outcome.reason }),
    walletUrl: `${deps.config.publicUrl}/wallet`,
  });
}

/**
 * Ends a withdrawal as completed in the caller's transaction: its hash, the fee moved from withdrawals paid out
 * to the platform's fee revenue (idempotent by key), the member mailed and notified.
 */
export async function completeWithdrawal(
  tx: Executor,
  deps: Deps,
  row: TransactionRow,
  w: WithdrawalRow,
  options: { txHash: string; decidedBy?: string },
): Promise<TransactionRow> {
  const now = deps.clock.now();
  if (w.feeCents > 0) {
    const paidOut = await platformAccount(tx, 'platform_withdrawals_paid_out');
    const fees = await platformAccount(tx, 'platform_withdrawal_fees');
    await postEntry(tx, deps, {
      kind: 'withdrawal_fee',
      idempotencyKey: `withdrawal_fee:${row.id}`,
      description: `Network fee of withdrawal ${row.id}`,
      metadata: { transactionId: row.id },
      lines: [
        { accountId: paidOut, amountCents: -w.feeCents },
        { accountId: fees, amountCents: w.feeCents },
      ],
    });
  }
  const [updated] = await tx
    .update(transactions)
    .set({ status: 'completed', txHash: options.txHash, updatedAt: now, decidedAt: row.decidedAt ?? now, ...(options.decidedBy ? { decidedBy: options.decidedBy } : {}) })
    .where(eq(transactions.id, row.id))
    .returning();
  await tx
    .update(withdrawals)
    .set({ stage: 'completed', finishedAt: now, leaseUntil: null, nextAttemptAt: null, nextPollAt: null, lastError: null, updatedAt: now })
    .where(eq(withdrawals.transactionId, row.id));
  await tellMember(tx, deps, row, { completed: true, txHash: options.txHash, mail: true });
  return updated!;
}

export const reasons = messages.withdrawals.reasons;

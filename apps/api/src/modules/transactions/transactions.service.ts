import { and, desc, eq, sql } from 'drizzle-orm';
import {
  centsToUsd,
  formatCentsFixed,
  messages,
  PACK_FEATURES,
  PACKS,
  usdToCents,
  UUID_PATTERN,
  type createWithdrawalBody,
  type ownTransactionsQuery,
  type Plan,
  type TimelineStep,
  type Transaction,
  type withdrawalDecisionBody,
} from '@terrafund/contracts';
import type { z } from 'zod';
import { transactions, users, type TransactionRow, type UserRow } from '../../db/schema';
import { preparedStatement, unmappedRows, type Database } from '../../db/client';
import type { Deps } from '../../deps';
import { AppError } from '../../lib/app-error';
import { afterKey, encodeCursor, keyTimestamp, readCursor } from '../../lib/cursor';
import { recordAudit } from '../audit';
import { InsufficientBalanceError, memberAccount, platformAccount, postEntry } from '../ledger';
import { enqueueMail } from '../mail';
import { notify } from '../notifications';


/** What a transaction's answer is made of. */
type TransactionDtoSource = Pick<
  TransactionRow,
  'id' | 'userId' | 'type' | 'amountCents' | 'status' | 'description' | 'walletAddress' | 'txHash' | 'plan' | 'createdAt' | 'updatedAt'
>;

export function toTransactionDto(row: TransactionDtoSource): Transaction {
  return {
    _id: row.id,
    type: row.type,
    amount: centsToUsd(row.amountCents),
    status: row.status,
    userId: row.userId,
    description: row.description,
    walletAddress: row.walletAddress,
    txHash: row.txHash,
    plan: row.plan,
    date: row.createdAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export const listPlans = (): Plan[] => PACKS.map((p) => ({ ...p, features: [...PACK_FEATURES] }));

/**
 * A withdrawal request: the amount leaves the wallet at once (held against withdrawals paid out), the member
 * is mailed the amount, address and time, and the transaction waits for an admin. The ledger refuses to take the wallet below zero, whatever arrives at once.
 */
export async function requestWithdrawal(deps: Deps, user: UserRow, body: z.output<typeof createWithdrawalBody>) {
  if (user.kycStatus !== 'approved' || !user.kycVerified) throw new AppError('FORBIDDEN', messages.wallet.kycRequired);
  const cents = usdToCents(body.amount);
  try {
    const row = await deps.db.transaction(async (tx) => {
      const now = deps.clock.now();
      const [created] = await tx
        .insert(transactions)
        .values({
          userId: user.id,
          type: 'withdrawal',
          amountCents: cents,
          status: 'pending',
          description: `Withdrawal of ${formatCentsFixed(cents)} to ${body.walletAddress}`,
          walletAddress: body.walletAddress,
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
        metadata: { transactionId: created!.id },
        lines: [
          { accountId: wallet, amountCents: -cents },
          { accountId: paidOut, amountCents: cents },
        ],
      });
      const [withEntry] = await tx.update(transactions).set({ entryId }).where(eq(transactions.id, created!.id)).returning();
      // In the same transaction: the member hears of every withdrawal that holds money, and of no other.
      await notify(tx, deps, user.id, 'withdrawal.requested', { amount: formatCentsFixed(cents), address: body.walletAddress }, `withdrawal.requested:${created!.id}`);
      await enqueueMail(tx, deps, user.email, 'withdrawalRequested', {
        firstName: user.firstName,
        amount: formatCentsFixed(cents),
        address: body.walletAddress,
        requestedAt: `${now.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
        supportEmail: deps.config.contact.email,
        walletUrl: `${deps.config.publicUrl}/wallet`,
      });
      return withEntry!;
    });
    deps.mailQueued();
    return toTransactionDto(row);
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
 * One page of the caller's own transactions, newest first, after `cursor` when given; `next` is the cursor of
 * the page after it, absent on the last page. Keyset paging with the admin list's cursor (lib/cursor.ts):
 * the key is the row's created_at to the microsecond and its id, so rows created in the same millisecond are
 * neither skipped nor repeated, and a member with years of daily dividends reaches every one of them.
 */
/** A member's newest transactions, one more than a page; with `after`, those strictly after a cursor's key. */
const ownPage = (after: boolean) =>
  preparedStatement((db: Database) =>
    db
      .select({
        id: transactions.id,
        user_id: transactions.userId,
        type: transactions.type,
        amount_cents: transactions.amountCents,
        status: transactions.status,
        description: transactions.description,
        wallet_address: transactions.walletAddress,
        tx_hash: transactions.txHash,
        plan: transactions.plan,
        created_at: transactions.createdAt,
        updated_at: transactions.updatedAt,
        key: keyTimestamp(transactions.createdAt).as('key'),
      })
      .from(transactions)
      .where(
        and(
          eq(transactions.userId, sql.placeholder('userId')),
          afterKey(transactions.createdAt, transactions.id, after ? { createdAt: sql.placeholder('createdAt'), id: sql.placeholder('id') } : undefined),
        ),
      )
      .orderBy(desc(transactions.createdAt), desc(transactions.id))
      .limit(sql.placeholder('limit'))
      .prepare(after ? 'own_transactions_after' : 'own_transactions'),
  );
const firstOwnPage = ownPage(false);
const nextOwnPage = ownPage(true);

/**
 * A page row as both drivers return it unmapped (`.all()`): named by column, timestamps as PostgreSQL's text,
 * bigint as text (node-postgres) or a number (PGlite).
 */
type RawPageRow = {
  [K in 'id' | 'user_id' | 'description' | 'key']: string;
} & {
  type: TransactionRow['type'];
  status: TransactionRow['status'];
  amount_cents: string | number;
  wallet_address: string | null;
  tx_hash: string | null;
  plan: string | null;
  created_at: string;
  updated_at: string;
};

/**
 * The page's rows read without Drizzle's row mapping, which was the largest single cost of a member's first page
 * (docs/performance.md, GET /api/transactions); the fields are the ones toTransactionDto reads, converted as the
 * schema's columns convert them.
 */
const pageRow = (raw: RawPageRow): TransactionDtoSource => ({
  id: raw.id,
  userId: raw.user_id,
  type: raw.type,
  amountCents: Number(raw.amount_cents),
  status: raw.status,
  description: raw.description,
  walletAddress: raw.wallet_address,
  txHash: raw.tx_hash,
  plan: raw.plan,
  createdAt: new Date(raw.created_at),
  updatedAt: new Date(raw.updated_at),
});

export async function listOwnTransactions(
  deps: Pick<Deps, 'db'>,
  user: Pick<UserRow, 'id'>,
  query: z.output<typeof ownTransactionsQuery>,
): Promise<{ items: Transaction[]; next?: string }> {
  const start = readCursor(query.cursor, messages.admin.cursorInvalid);
  // One row more than asked tells whether a next page exists without another query.
  const limit = query.limit + 1;
  const rows = start
    ? await unmappedRows<RawPageRow>(nextOwnPage(deps.db), { userId: user.id, createdAt: start.createdAt, id: start.id, limit })
    : await unmappedRows<RawPageRow>(firstOwnPage(deps.db), { userId: user.id, limit });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    items: page.map((raw) => toTransactionDto(pageRow(raw))),
    ...(rows.length > query.limit && last ? { next: encodeCursor({ createdAt: last.key, id: last.id }) } : {}),
  };
}

export async function recentTransactionsOf(deps: Pick<Deps, 'db'>, userId: string, limit = 10) {
  const rows = await deps.db
    .select()
    .from(transactions)
    .where(eq(transactions.userId, userId))
    .orderBy(desc(transactions.createdAt), desc(transactions.id))
    .limit(limit);
  return rows.map(toTransactionDto);
}

/** One transaction, for its owner or an admin; anyone else is told it does not exist. */
export async function getTransaction(deps: Deps, requester: UserRow, id: string) {
  const notFound = new AppError('NOT_FOUND', messages.wallet.transactionNotFound);
  if (!UUID_PATTERN.test(id)) throw notFound;
  const [row] = await deps.db.select().from(transactions).where(eq(transactions.id, id)).limit(1);
  if (!row || (row.userId !== requester.id && requester.role !== 'admin')) throw notFound;
  return { ...toTransactionDto(row), ...(row.type === 'withdrawal' ? { timeline: withdrawalTimeline(row) } : {}) };
}

/** What a withdrawal went through: requested, then completed (with its hash) or failed once an admin decided. */
function withdrawalTimeline(row: TransactionRow): TimelineStep[] {
  const steps: TimelineStep[] = [{ status: 'requested', at: row.createdAt.toISOString() }];
  if (row.status !== 'pending') {
    const at = (row.decidedAt ?? row.updatedAt).toISOString();
    steps.push(row.status === 'completed' ? { status: 'completed', at, ...(row.txHash ? { txHash: row.txHash } : {}) } : { status: 'failed', at });
  }
  return steps;
}

/**
 * An admin completes or fails a pending withdrawal; failing it returns the amount to the wallet in the same
 * database transaction. The row lock lets exactly one of several simultaneous decisions through.
 */
export async function decideWithdrawal(
  deps: Deps,
  admin: UserRow,
  id: string,
  body: z.output<typeof withdrawalDecisionBody>,
) {
  if (!UUID_PATTERN.test(id)) throw new AppError('NOT_FOUND', messages.wallet.transactionNotFound);
  const row = await deps.db.transaction(async (tx) => {
    const [current] = await tx.select().from(transactions).where(eq(transactions.id, id)).for('update');
    if (!current) throw new AppError('NOT_FOUND', messages.wallet.transactionNotFound);
    if (current.type !== 'withdrawal' || current.status !== 'pending') {
      throw new AppError('CONFLICT', messages.wallet.withdrawalNotPending);
    }
    const now = deps.clock.now();
    if (body.status === 'failed') {
      const wallet = await memberAccount(tx, current.userId, 'member_wallet');
      const paidOut = await platformAccount(tx, 'platform_withdrawals_paid_out');
      await postEntry(tx, deps, {
        kind: 'withdrawal_refund',
        idempotencyKey: `withdrawal-refund:${current.id}`,
        description: `Refund of failed withdrawal ${current.id}`,
        metadata: { transactionId: current.id },
        lines: [
          { accountId: wallet, amountCents: current.amountCents },
          { accountId: paidOut, amountCents: -current.amountCents },
        ],
      });
    }
    const [decided] = await tx
      .update(transactions)
      .set({
        status: body.status,
        txHash: body.status === 'completed' ? (body.txHash ?? null) : null,
        decidedBy: admin.id,
        decidedAt: now,
        updatedAt: now,
      })
      .where(and(eq(transactions.id, current.id), eq(transactions.status, 'pending')))
      .returning();
    await recordAudit(tx, deps, {
      actorId: admin.id,
      action: body.status === 'completed' ? 'withdrawal.completed' : 'withdrawal.failed',
      targetType: 'user',
      targetId: current.userId,
      before: { transactionId: current.id, status: current.status },
      after: { transactionId: current.id, status: body.status, ...(body.txHash ? { txHash: body.txHash } : {}) },
    });
    const [member] = await tx.select().from(users).where(eq(users.id, current.userId));
    if (member) {
      const amount = formatCentsFixed(current.amountCents);
      if (body.status === 'completed') {
        await notify(tx, deps, member.id, 'withdrawal.completed', { amount, txHash: body.txHash }, `withdrawal.completed:${current.id}`);
      } else {
        await notify(tx, deps, member.id, 'withdrawal.failed', { amount }, `withdrawal.failed:${current.id}`);
      }
      await enqueueMail(tx, deps, member.email, 'withdrawalDecided', {
        firstName: member.firstName,
        amount: formatCentsFixed(current.amountCents),
        completed: body.status === 'completed',
        txHash: body.txHash,
        walletUrl: `${deps.config.publicUrl}/wallet`,
      });
    }
    return decided!;
  });
  deps.mailQueued();
  return toTransactionDto(row);
}

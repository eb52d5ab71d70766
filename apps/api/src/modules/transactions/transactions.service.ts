import { and, desc, eq, sql } from 'drizzle-orm';
import {
  centsToUsd,
  messages,
  PACK_FEATURES,
  PACKS,
  UUID_PATTERN,
  type ownTransactionsQuery,
  type Plan,
  type Transaction,
} from '@terrafund/contracts';
import type { z } from 'zod';
import { transactions, type TransactionRow, type UserRow } from '../../db/schema';
import { preparedStatement, unmappedRows, type Database } from '../../db/client';
import type { Deps } from '../../deps';
import { AppError } from '../../lib/app-error';
import { afterKey, encodeCursor, keyTimestamp, readCursor } from '../../lib/cursor';
import { opensAsAdmin } from '../sessions';


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
  if (!row || (row.userId !== requester.id && !opensAsAdmin(deps, requester))) throw notFound;
  return row;
}

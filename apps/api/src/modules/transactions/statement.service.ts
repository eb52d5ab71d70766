import { and, asc, eq, gte, lt, sql } from 'drizzle-orm';
import { formatCentsFixed, STATEMENT_HEADER, type StatementQuery } from '@terrafund/contracts';
import type { Database } from '../../db/client';
import { transactions, type TransactionRow } from '../../db/schema';
import { csvRow } from '../../lib/csv';

/** Rows read per query: a statement of years is read in slices, never held whole in memory. */
const STATEMENT_BATCH_SIZE = 500;

const AMOUNT_COLUMN = STATEMENT_HEADER.indexOf('Amount (USD)');

/** Money into the wallet or the pack is positive; money out (withdrawals, investments) is negative. */
const MONEY_OUT = new Set<TransactionRow['type']>(['withdrawal', 'investment']);

const signedAmount = (row: Pick<TransactionRow, 'type' | 'amountCents'>) =>
  `${MONEY_OUT.has(row.type) ? '-' : ''}${formatCentsFixed(row.amountCents)}`;

/** The UTC day after `day` (YYYY-MM-DD), as the first instant not in a range that ends on `day`. */
const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000);

export const statementFileName = (query: StatementQuery) => `terrafund-statement-${query.from}-to-${query.to}.csv`;

/** created_at with its microseconds, so the keyset never skips or repeats rows of one millisecond. */
const keyTimestamp = sql<string>`to_char(${transactions.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

function statementLine(row: TransactionRow) {
  const description = row.txHash ? `${row.description} (transaction hash ${row.txHash})` : row.description;
  return csvRow([row.createdAt.toISOString(), row.type, description, signedAmount(row), row.status, row.id], [AMOUNT_COLUMN]);
}

/**
 * GET /api/transactions/export: the member's transactions from `from` to `to` (UTC days, both included), oldest
 * first as a statement reads, as CSV lines. A generator: the route streams each slice as it is read (keyset on
 * the index transactions_user_created_idx), so memory stays flat whatever the range.
 */
export async function* statementLines(
  deps: { db: Database },
  userId: string,
  query: StatementQuery,
  batchSize = STATEMENT_BATCH_SIZE,
): AsyncGenerator<string> {
  yield csvRow(STATEMENT_HEADER);
  const start = new Date(`${query.from}T00:00:00.000Z`);
  const end = dayAfter(query.to);
  let after: { createdAt: string; id: string } | undefined;
  for (;;) {
    const rows = await deps.db
      .select({ row: transactions, key: keyTimestamp })
      .from(transactions)
      .where(
        and(
          eq(transactions.userId, userId),
          gte(transactions.createdAt, start),
          lt(transactions.createdAt, end),
          after ? sql`(${transactions.createdAt}, ${transactions.id}) > (${after.createdAt}::timestamptz, ${after.id}::uuid)` : undefined,
        ),
      )
      .orderBy(asc(transactions.createdAt), asc(transactions.id))
      .limit(batchSize);
    if (rows.length === 0) return;
    yield rows.map(({ row }) => statementLine(row)).join('');
    if (rows.length < batchSize) return;
    const last = rows.at(-1)!;
    after = { createdAt: last.key, id: last.row.id };
  }
}

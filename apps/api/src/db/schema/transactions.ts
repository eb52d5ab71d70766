import { sql } from 'drizzle-orm';
import { bigint, check, date, index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { idColumn, instant, timestamps } from './columns';
import { journalEntries } from './ledger';
import { projects } from './projects';
import { users, userIdColumn } from './users';

/**
 * The member-facing record of a movement of money (spec: deposit, withdrawal, payout, investment). Each one is
 * explained by the journal entries written in the same database transaction.
 */
export const transactions = pgTable(
  'transactions',
  {
    id: idColumn(),
    userId: userIdColumn(),
    type: text('type', { enum: ['deposit', 'withdrawal', 'payout', 'investment'] }).notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    status: text('status', { enum: ['pending', 'completed', 'failed'] }).notNull(),
    description: text('description').notNull(),
    walletAddress: text('wallet_address'),
    txHash: text('tx_hash'),
    plan: text('plan'),
    /** The project of an `investment`. */
    projectId: uuid('project_id').references(() => projects.id),
    /** The entry that moved the money when the transaction was created (the hold, for a withdrawal). */
    entryId: uuid('entry_id').references(() => journalEntries.id),
    decidedBy: uuid('decided_by').references(() => users.id),
    decidedAt: instant('decided_at'),
    ...timestamps(),
  },
  (t) => [
    check('transactions_amount_positive', sql`${t.amountCents} > 0`),
    check('transactions_type_check', sql`${t.type} in ('deposit', 'withdrawal', 'payout', 'investment')`),
    check('transactions_status_check', sql`${t.status} in ('pending', 'completed', 'failed')`),
    index('transactions_user_created_idx').on(t.userId, t.createdAt.desc(), t.id.desc()),
    index('transactions_created_idx').on(t.createdAt.desc(), t.id.desc()),
    index('transactions_project_idx').on(t.projectId).where(sql`${t.projectId} is not null`),
    // The admin figures' partial days (a 30-day window starts and ends mid-day): one type's rows of a day.
    index('transactions_type_status_created_idx').on(t.type, t.status, t.createdAt),
    check('transactions_investment_project', sql`(${t.type} = 'investment') = (${t.projectId} is not null)`),
  ],
);

export type TransactionRow = typeof transactions.$inferSelect;

/**
 * Count and sum of `transactions` per UTC day, type and status, kept by statement-level triggers on
 * `transactions` (migration 0010), so the admin figures read days, not rows. Each statement that writes
 * transactions appends its net change per bucket (append-only: concurrent writers never wait on a shared
 * row); `foldTransactionTotals` merges a bucket's rows into one. The true figure of a bucket is the sum of
 * its rows.
 */
export const transactionTotals = pgTable(
  'transaction_totals',
  {
    day: date('day', { mode: 'string' }).notNull(),
    type: text('type').notNull(),
    status: text('status').notNull(),
    count: bigint('count', { mode: 'number' }).notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
  },
  (t) => [index('transaction_totals_bucket_idx').on(t.type, t.status, t.day)],
);

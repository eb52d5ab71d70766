import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { journalEntries } from './ledger';
import { projects } from './projects';
import { users } from './users';

/**
 * The member-facing record of a movement of money (spec: deposit, withdrawal, payout, investment). Each one is
 * explained by the journal entries written in the same database transaction.
 */
export const transactions = pgTable(
  'transactions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
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
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    check('transactions_amount_positive', sql`${t.amountCents} > 0`),
    check('transactions_type_check', sql`${t.type} in ('deposit', 'withdrawal', 'payout', 'investment')`),
    check('transactions_status_check', sql`${t.status} in ('pending', 'completed', 'failed')`),
    index('transactions_user_created_idx').on(t.userId, t.createdAt.desc(), t.id.desc()),
    index('transactions_created_idx').on(t.createdAt.desc(), t.id.desc()),
    index('transactions_project_idx').on(t.projectId).where(sql`${t.projectId} is not null`),
    check('transactions_investment_project', sql`(${t.type} = 'investment') = (${t.projectId} is not null)`),
  ],
);

export type TransactionRow = typeof transactions.$inferSelect;

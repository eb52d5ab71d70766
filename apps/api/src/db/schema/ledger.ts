import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { idColumn, instant } from './columns';
import { users } from './users';

/**
 * Double-entry ledger. Every movement of money is a journal entry whose postings sum to zero; an account's
 * balance is kept by the database itself (a trigger adds each posting), and a CHECK forbids a negative
 * balance on any account not marked `allows_negative`. Postings and entries are append-only.
 */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: idColumn(),
    /** `member:<user id>:<kind>` or `platform:<kind>`. */
    code: text('code').notNull().unique(),
    userId: uuid('user_id').references(() => users.id),
    kind: text('kind', {
      enum: [
        'member_wallet',
        'member_invested',
        'member_pack',
        'platform_crypto_received',
        'platform_dividends_paid',
        'platform_withdrawals_paid_out',
        'platform_project_funding',
        'platform_packs_retired',
        'platform_withdrawal_fees',
      ],
    }).notNull(),
    balanceCents: bigint('balance_cents', { mode: 'number' }).notNull().default(sql`0`),
    allowsNegative: boolean('allows_negative').notNull().default(false),
    createdAt: instant('created_at').notNull().defaultNow(),
  },
  (t) => [
    check('ledger_accounts_non_negative', sql`${t.allowsNegative} or ${t.balanceCents} >= 0`),
    check('ledger_accounts_member_owned', sql`(${t.kind} like 'member_%') = (${t.userId} is not null)`),
    index('ledger_accounts_user_idx').on(t.userId),
  ],
);

export const journalEntries = pgTable(
  'journal_entries',
  {
    id: idColumn(),
    kind: text('kind').notNull(),
    /** What makes a movement happen once: a provider invoice, a membership and business day, a request id. */
    idempotencyKey: text('idempotency_key').notNull().unique(),
    description: text('description').notNull(),
    metadata: jsonb('metadata'),
    createdAt: instant('created_at').notNull(),
  },
  (t) => [index('journal_entries_created_idx').on(t.createdAt.desc())],
);

export const postings = pgTable(
  'postings',
  {
    id: idColumn(),
    entryId: uuid('entry_id')
      .notNull()
      .references(() => journalEntries.id),
    accountId: uuid('account_id')
      .notNull()
      .references(() => ledgerAccounts.id),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    createdAt: instant('created_at').notNull(),
  },
  (t) => [
    check('postings_non_zero', sql`${t.amountCents} <> 0`),
    index('postings_entry_idx').on(t.entryId),
    index('postings_account_idx').on(t.accountId, t.createdAt),
  ],
);

import { sql } from 'drizzle-orm';
import { bigint, check, date, index, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { idColumn, instant } from './columns';
import { journalEntries } from './ledger';
import { transactions } from './transactions';
import { userIdColumn } from './users';

/**
 * A member's pack (docs/product.md §5.5 Memberships): bought by a settled deposit, runs 3 years from activation. Price and
 * daily dividend are copied from the pack at purchase so a later change of the price list changes nothing here.
 * At most one `active` membership per member; "Switch Plan" marks the old one `replaced` (with `replaced_at`,
 * the moment the new one started). Which business days a membership is paid for: see modules/payouts/payouts.service.ts.
 */
export const memberships = pgTable(
  'memberships',
  {
    id: idColumn(),
    userId: userIdColumn(),
    pack: text('pack', { enum: ['startium', 'ultimium', 'gold', 'platinum'] }).notNull(),
    priceCents: bigint('price_cents', { mode: 'number' }).notNull(),
    dailyDividendCents: bigint('daily_dividend_cents', { mode: 'number' }).notNull(),
    startedAt: instant('started_at').notNull(),
    /** started_at + 3 years. */
    endsAt: instant('ends_at').notNull(),
    status: text('status', { enum: ['active', 'replaced', 'ended'] }).notNull().default('active'),
    /** When the membership that replaced this one started (set with status `replaced`). */
    replacedAt: instant('replaced_at'),
    depositTransactionId: uuid('deposit_transaction_id').references(() => transactions.id),
    createdAt: instant('created_at').notNull().defaultNow(),
  },
  (t) => [
    check('memberships_pack_check', sql`${t.pack} in ('startium', 'ultimium', 'gold', 'platinum')`),
    check('memberships_status_check', sql`${t.status} in ('active', 'replaced', 'ended')`),
    check('memberships_replaced_at', sql`(${t.status} = 'replaced') = (${t.replacedAt} is not null)`),
    check('memberships_amounts_positive', sql`${t.priceCents} > 0 and ${t.dailyDividendCents} > 0`),
    check('memberships_window', sql`${t.endsAt} > ${t.startedAt}`),
    uniqueIndex('memberships_one_active_per_user').on(t.userId).where(sql`${t.status} = 'active'`),
    uniqueIndex('memberships_deposit_transaction_unique').on(t.depositTransactionId),
    index('memberships_user_idx').on(t.userId, t.startedAt.desc()),
    // The payout job walks memberships in activation order, the order their rows (and their members' wallets)
    // were written in (modules/payouts/payouts.service.ts).
    index('memberships_started_idx').on(t.startedAt, t.id),
    // The end job's sweep reads only the active memberships near their end (modules/memberships/membership-end.service.ts).
    index('memberships_active_ends_idx').on(t.endsAt).where(sql`${t.status} = 'active'`),
  ],
);

/**
 * One row per membership and business day paid: the primary key is the database's guarantee that a dividend
 * is paid once. Written by the payout job only, in the same statement as the transaction and postings it names.
 */
export const dividendPayouts = pgTable(
  'dividend_payouts',
  {
    membershipId: uuid('membership_id')
      .notNull()
      .references(() => memberships.id),
    businessDay: date('business_day', { mode: 'string' }).notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    transactionId: uuid('transaction_id')
      .notNull()
      .references(() => transactions.id),
    entryId: uuid('entry_id')
      .notNull()
      .references(() => journalEntries.id),
    createdAt: instant('created_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.membershipId, t.businessDay] }),
    check('dividend_payouts_amount_positive', sql`${t.amountCents} > 0`),
    uniqueIndex('dividend_payouts_transaction_unique').on(t.transactionId),
    index('dividend_payouts_day_idx').on(t.businessDay),
  ],
);

/**
 * The mails of a membership's end (modules/memberships/membership-end.service.ts): one row per membership and kind, written in the
 * transaction that queues the mail. The primary key is what makes each mail go once, whatever number of
 * servers or reruns look at the same membership at once.
 */
export const membershipReminders = pgTable(
  'membership_reminders',
  {
    membershipId: uuid('membership_id')
      .notNull()
      .references(() => memberships.id),
    kind: text('kind', { enum: ['ending_soon', 'ended'] }).notNull(),
    sentAt: instant('sent_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.membershipId, t.kind] }),
    check('membership_reminders_kind_check', sql`${t.kind} in ('ending_soon', 'ended')`),
  ],
);

export type MembershipRow = typeof memberships.$inferSelect;
export type DividendPayoutRow = typeof dividendPayouts.$inferSelect;

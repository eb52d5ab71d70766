import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { idColumn, instant } from './columns';
import { users, userIdColumn } from './users';

/**
 * Which optional mail a member gets (issue 34). No row: the defaults (NOTIFICATION_PREFERENCE_DEFAULTS in
 * contracts, the columns' defaults here). Security mail is not here: it always goes.
 */
export const notificationPreferences = pgTable('notification_preferences', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  dividends: boolean('dividends').notNull().default(false),
  kyc: boolean('kyc').notNull().default(true),
  withdrawals: boolean('withdrawals').notNull().default(true),
  payments: boolean('payments').notNull().default(true),
  membership: boolean('membership').notNull().default(true),
  projects: boolean('projects').notNull().default(false),
  /**
   * The dividends mail has told of every payout written up to this instant (dividend_payouts.created_at): the next
   * mail covers the payouts after it, so a run that pays five days caught up sends one mail, and a member who turns
   * the kind on is not mailed the past. Set when the kind is turned on.
   */
  dividendsMailedThrough: instant('dividends_mailed_through'),
  updatedAt: instant('updated_at').notNull(),
});

/**
 * A member's data export (modules/privacy/data-export.service.ts). The row is committed with the request and built
 * by the export worker (leased like the mail outbox, so a restart loses nothing and two servers never build one
 * twice); the ZIP lives in the private file storage under `storage_key` until `expires_at`, when the worker deletes
 * it (`purged_at`). The row stays: it is what "one export a day" counts.
 */
export const dataExports = pgTable(
  'data_exports',
  {
    id: idColumn(),
    userId: userIdColumn('user_id', { onDelete: 'cascade' }),
    status: text('status', { enum: ['pending', 'ready'] }).notNull().default('pending'),
    storageKey: text('storage_key'),
    sizeBytes: integer('size_bytes'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: instant('next_attempt_at').notNull(),
    lockedUntil: instant('locked_until'),
    lastError: text('last_error'),
    createdAt: instant('created_at').notNull(),
    readyAt: instant('ready_at'),
    expiresAt: instant('expires_at').notNull(),
    purgedAt: instant('purged_at'),
  },
  (t) => [
    check('data_exports_status_check', sql`${t.status} in ('pending', 'ready')`),
    check('data_exports_ready_check', sql`(${t.status} = 'ready') = (${t.readyAt} is not null)`),
    index('data_exports_user_created_idx').on(t.userId, t.createdAt.desc()),
    index('data_exports_pending_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('data_exports_expiry_idx').on(t.expiresAt).where(sql`${t.purgedAt} is null`),
  ],
);

export type DataExportRow = typeof dataExports.$inferSelect;

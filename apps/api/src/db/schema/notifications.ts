import { sql } from 'drizzle-orm';
import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, instant } from './columns';
import { userIdColumn } from './users';

/**
 * What the bell shows a member (modules/notifications). Written in the same database transaction as the event it
 * tells of; `dedupe_key` names that event, so an event handled twice (a provider notification delivered again)
 * leaves one notification.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: idColumn(),
    userId: userIdColumn(),
    type: text('type').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    dedupeKey: text('dedupe_key').notNull(),
    createdAt: instant('created_at').notNull(),
    readAt: instant('read_at'),
  },
  (t) => [
    uniqueIndex('notifications_user_dedupe_idx').on(t.userId, t.dedupeKey),
    index('notifications_user_created_idx').on(t.userId, t.createdAt.desc(), t.id.desc()),
    index('notifications_user_unread_idx').on(t.userId).where(sql`${t.readAt} is null`),
  ],
);

export type NotificationRow = typeof notifications.$inferSelect;

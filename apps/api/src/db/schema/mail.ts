import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { idColumn, instant } from './columns';

/**
 * Mail waiting to be sent, written in the same transaction as the change that causes it. The body is
 * encrypted (it may hold a code or a reset link) and erased once sent.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: idColumn(),
    template: text('template').notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    sealedBody: text('sealed_body'),
    status: text('status', { enum: ['pending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: instant('next_attempt_at').notNull(),
    lockedUntil: instant('locked_until'),
    lastError: text('last_error'),
    createdAt: instant('created_at').notNull(),
    sentAt: instant('sent_at'),
    /** When the current run of failed attempts began: the outbox keeps trying for 24 hours from here. */
    firstFailedAt: instant('first_failed_at'),
    /** The last attempt could not reach the mail server (as opposed to the server refusing this mail). */
    waitingForServer: boolean('waiting_for_server').notNull().default(false),
  },
  (t) => [
    check('mail_outbox_status_check', sql`${t.status} in ('pending', 'sent', 'failed')`),
    index('mail_outbox_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    // Mail given up on (status failed: undeliverable), listed for admins and counted by /metrics.
    index('mail_outbox_undeliverable_idx').on(t.createdAt).where(sql`${t.status} = 'failed'`),
  ],
);

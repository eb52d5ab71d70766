import { z } from 'zod';
import { messages } from './messages';
import { transactionSchema } from './money';

/**
 * What the bell can tell a member. Each type has one screen it links to (NOTIFICATION_LINKS); the title and body
 * are written by the server when the event happens, so they keep the amounts and reasons of that moment.
 */
export const NOTIFICATION_TYPES = [
  'payment.settled',
  'kyc.approved',
  'kyc.rejected',
  'withdrawal.requested',
  'withdrawal.completed',
  'withdrawal.failed',
  'investment.made',
  'membership.ending',
  'membership.ended',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** The screen each notification opens (paths of the web app). */
export const NOTIFICATION_LINKS: Record<NotificationType, string> = {
  'payment.settled': '/wallet',
  'kyc.approved': '/kyc',
  'kyc.rejected': '/kyc',
  'withdrawal.requested': '/wallet',
  'withdrawal.completed': '/wallet',
  'withdrawal.failed': '/wallet',
  'investment.made': '/projects',
  'membership.ending': '/wallet',
  'membership.ended': '/wallet',
};

/** Notifications a page of GET /api/notifications holds at most. */
export const NOTIFICATIONS_PAGE_SIZE = 20;
/** Ids one POST /api/notifications/read may name. */
export const NOTIFICATIONS_READ_MAX_IDS = 100;

export const notificationSchema = z.object({
  id: z.string(),
  type: z.enum(NOTIFICATION_TYPES),
  title: z.string(),
  body: z.string(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const notificationsPageSchema = z.object({
  items: z.array(notificationSchema),
  unreadCount: z.number().int(),
  nextCursor: z.string().nullable(),
});
export type NotificationsPage = z.infer<typeof notificationsPageSchema>;

const n = messages.notifications;

export const notificationsQuery = z.object({
  cursor: z.string({ error: n.cursorInvalid }).max(200, n.cursorInvalid).optional(),
});

/** `{ids: [...]}` marks those of the caller's notifications read; `{all: true}` marks every one. */
export const markNotificationsReadBody = z.union(
  [
    z.object({ all: z.literal(true) }).strict(),
    z
      .object({ ids: z.array(z.string().max(200), { error: n.readBodyInvalid }).min(1, n.readBodyInvalid).max(NOTIFICATIONS_READ_MAX_IDS, n.tooManyIds) })
      .strict(),
  ],
  { error: n.readBodyInvalid },
);
export type MarkNotificationsReadBody = z.infer<typeof markNotificationsReadBody>;

export const unreadCountSchema = z.object({ unreadCount: z.number().int() });

// ---------------------------------------------------------------------------------------------------------------
// Statements and following a withdrawal

/** The first row of every statement, exactly. */
export const STATEMENT_HEADER = ['Date', 'Type', 'Description', 'Amount (USD)', 'Status', 'Reference'] as const;

const s = messages.statements;

/** A calendar day, YYYY-MM-DD, that exists (no 31st of February). */
export const isoDay = (message: string) =>
  z
    .string({ error: message })
    .regex(/^\d{4}-\d{2}-\d{2}$/, message)
    .refine((value) => {
      const [year, month, day] = value.split('-').map(Number) as [number, number, number];
      const date = new Date(Date.UTC(year, month - 1, day));
      return year >= 1970 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
    }, message);

/** GET /api/transactions/export: both days included; `from` may not come after `to`. */
export const statementQuery = z
  .object({ from: isoDay(s.fromInvalid), to: isoDay(s.toInvalid) })
  .refine((q) => q.from <= q.to, { message: s.rangeInvalid, path: ['to'] });
export type StatementQuery = z.infer<typeof statementQuery>;

export const WITHDRAWAL_TIMELINE_STATUSES = ['requested', 'completed', 'failed'] as const;

export const timelineStepSchema = z.object({
  status: z.enum(WITHDRAWAL_TIMELINE_STATUSES),
  at: z.string(),
  txHash: z.string().optional(),
});
export type TimelineStep = z.infer<typeof timelineStepSchema>;

/** GET /api/transactions/{id}: the transaction, and for a withdrawal the steps it went through. */
export const transactionDetailSchema = transactionSchema.extend({ timeline: z.array(timelineStepSchema).optional() });
export type TransactionDetail = z.infer<typeof transactionDetailSchema>;

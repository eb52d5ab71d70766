import { z } from 'zod';
import { cursorPage, cursorQuery } from './list-fields';
import { messages } from './messages';
import { transactionSchema, withdrawalApprovalSchema, withdrawalPayoutSchema } from './money';
import { NOTIFICATION_TYPES, NOTIFICATIONS_READ_MAX_IDS } from './notification-types';

export const notificationSchema = z.object({
  id: z.string(),
  type: z.enum(NOTIFICATION_TYPES),
  title: z.string(),
  body: z.string(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const notificationsPageSchema = cursorPage(notificationSchema, { unreadCount: z.number().int() });
export type NotificationsPage = z.infer<typeof notificationsPageSchema>;

const n = messages.notifications;

export const notificationsQuery = cursorQuery(n.cursorInvalid);

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

/** A withdrawal's steps: one `approved` per approval; `completed` carries the txHash, `failed`/`cancelled` a reason. */
export const WITHDRAWAL_TIMELINE_STATUSES = ['requested', 'confirmed', 'approved', 'sent', 'completed', 'failed', 'cancelled'] as const;
export type WithdrawalTimelineStatus = (typeof WITHDRAWAL_TIMELINE_STATUSES)[number];

export const timelineStepSchema = z.object({
  status: z.enum(WITHDRAWAL_TIMELINE_STATUSES),
  at: z.string(),
  txHash: z.string().optional(),
  /** In plain words: "Cancelled by you", "The confirmation link expired", "Refused by an administrator", … */
  reason: z.string().optional(),
});
export type TimelineStep = z.infer<typeof timelineStepSchema>;

/** GET /api/transactions/{id}: the transaction, and for a withdrawal the steps it went through. */
export const transactionDetailSchema = transactionSchema.extend({ timeline: z.array(timelineStepSchema).optional() });
export type TransactionDetail = z.infer<typeof transactionDetailSchema>;

/**
 * GET /api/admin/transactions/{id}: the transaction as admins see it, and for a withdrawal its approvals, timeline,
 * payout, the provider's last error while waiting for it, the member, and block-explorer links.
 */
export const adminTransactionDetailSchema = transactionSchema.extend({
  approvals: z.array(withdrawalApprovalSchema),
  timeline: z.array(timelineStepSchema),
  payout: withdrawalPayoutSchema.nullable(),
  lastError: z.string().nullable(),
  member: z.object({ name: z.string(), email: z.string() }),
  explorer: z.object({ address: z.string().nullable(), transaction: z.string().nullable() }),
});
export type AdminTransactionDetail = z.infer<typeof adminTransactionDetailSchema>;

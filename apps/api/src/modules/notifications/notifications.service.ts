import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import {
  messages,
  NOTIFICATIONS_PAGE_SIZE,
  UUID_PATTERN,
  type MarkNotificationsReadBody,
  type Notification,
  type NotificationsPage,
  type NotificationType,
} from '@terrafund/contracts';
import type { Database, Executor } from '../../db/client';
import { notifications } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { afterKey, encodeCursor, keyTimestamp, readCursor } from '../../lib/cursor';

type Content = { title: string; body: string };

/**
 * The words of each notification, written when the event happens. One function per type, so a caller cannot
 * name a type without giving what its text needs.
 */
const notificationTemplates = {
  'payment.settled': (p: { pack: string; amount: string; endsOn: string; replacedPack?: string }): Content => ({
    title: `Your ${p.pack} pack is active`,
    body:
      `We received your payment of ${p.amount} USD. Your ${p.pack} pack runs until ${p.endsOn}` +
      (p.replacedPack ? ` and replaces your ${p.replacedPack} pack.` : '.'),
  }),
  'kyc.approved': (): Content => ({
    title: 'Your identity is verified',
    body: 'Your KYC verification was approved. Investing and withdrawals are now open to you.',
  }),
  'kyc.rejected': (p: { reason: string }): Content => ({
    title: 'Your identity verification was rejected',
    body: `The reviewer wrote: ${p.reason}. Correct your details or documents and submit again.`,
  }),
  'withdrawal.requested': (p: { amount: string; address: string }): Content => ({
    title: 'Withdrawal requested',
    body: `A withdrawal of ${p.amount} USD to ${p.address} was requested and waits for review. If it was not you, contact support at once.`,
  }),
  'withdrawal.completed': (p: { amount: string; txHash?: string | null }): Content => ({
    title: 'Withdrawal sent',
    body: `Your withdrawal of ${p.amount} USD was sent.` + (p.txHash ? ` Transaction hash: ${p.txHash}` : ''),
  }),
  'withdrawal.failed': (p: { amount: string }): Content => ({
    title: 'Withdrawal failed',
    body: `Your withdrawal of ${p.amount} USD could not be completed. The full amount is back in your wallet balance.`,
  }),
  'investment.made': (p: { amount: string; project: string }): Content => ({
    title: 'Investment made',
    body: `You invested ${p.amount} USD in ${p.project}.`,
  }),
  'membership.ending': (p: { pack: string; endsOn: string; daysLeft: number }): Content => ({
    title: `Your ${p.pack} pack ends in ${p.daysLeft} ${p.daysLeft === 1 ? 'day' : 'days'}`,
    body: `Your ${p.pack} pack ends on ${p.endsOn}; no dividend is paid after that day. Buy a pack to keep earning.`,
  }),
  'membership.ended': (p: { pack: string; endedOn: string }): Content => ({
    title: `Your ${p.pack} pack has ended`,
    body: `Your ${p.pack} pack ended on ${p.endedOn} and pays no more dividends. Buy a pack to start a new membership.`,
  }),
  'data.export_ready': (): Content => ({ title: messages.privacy.exportReadyTitle, body: messages.privacy.exportReadyBody }),
} satisfies Record<NotificationType, (params: never) => Content>;

type Templates = typeof notificationTemplates;
type NotificationParams<T extends NotificationType> = Parameters<Templates[T]>[0];

/**
 * Tells `userId` of an event, in the caller's transaction: the notification exists exactly when the change that
 * causes it committed. `dedupeKey` names the event (e.g. `withdrawal.completed:<transaction id>`); the same key
 * twice for one member writes one row. Answers whether a row was written.
 */
export async function notify<T extends NotificationType>(
  tx: Executor,
  deps: { clock: Clock },
  userId: string,
  type: T,
  params: NotificationParams<T>,
  dedupeKey: string,
): Promise<boolean> {
  const content = (notificationTemplates[type] as (p: NotificationParams<T>) => Content)(params);
  const inserted = await tx
    .insert(notifications)
    .values({ userId, type, title: content.title, body: content.body, dedupeKey, createdAt: deps.clock.now() })
    .onConflictDoNothing({ target: [notifications.userId, notifications.dedupeKey] })
    .returning({ id: notifications.id });
  return inserted.length > 0;
}

export async function unreadCount(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return Number(row?.count ?? 0);
}

/** GET /api/notifications: the caller's notifications, newest first, a page at a time (keyset on created_at, id). */
export async function listNotifications(deps: { db: Database }, userId: string, cursor?: string): Promise<NotificationsPage> {
  // `?cursor=` (empty) is the first page, as the contract writes the first call.
  const after = readCursor(cursor || undefined, messages.notifications.cursorInvalid);
  const rows = await deps.db
    .select({ row: notifications, key: keyTimestamp(notifications.createdAt) })
    .from(notifications)
    .where(
      and(
        eq(notifications.userId, userId),
        afterKey(notifications.createdAt, notifications.id, after),
      ),
    )
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(NOTIFICATIONS_PAGE_SIZE + 1);
  const page = rows.slice(0, NOTIFICATIONS_PAGE_SIZE);
  const last = page.at(-1);
  return {
    items: page.map(({ row }) => toNotificationDto(row)),
    unreadCount: await unreadCount(deps.db, userId),
    nextCursor: rows.length > NOTIFICATIONS_PAGE_SIZE && last ? encodeCursor({ createdAt: last.key, id: last.row.id }) : null,
  };
}

/**
 * POST /api/notifications/read: marks the named notifications of the caller read (or all of them). Ids that
 * are not the caller's (another member's, or no one's) are ignored: the answer is the same as for an id that
 * does not exist, so it tells nothing about other members.
 */
export async function markRead(deps: { db: Database; clock: Clock }, userId: string, body: MarkNotificationsReadBody) {
  const mine = and(eq(notifications.userId, userId), isNull(notifications.readAt));
  if ('all' in body) {
    await deps.db.update(notifications).set({ readAt: deps.clock.now() }).where(mine);
  } else {
    const ids = [...new Set(body.ids.filter((id) => UUID_PATTERN.test(id)).map((id) => id.toLowerCase()))];
    if (ids.length > 0) {
      await deps.db.update(notifications).set({ readAt: deps.clock.now() }).where(and(mine, inArray(notifications.id, ids)));
    }
  }
  return { unreadCount: await unreadCount(deps.db, userId) };
}

function toNotificationDto(row: typeof notifications.$inferSelect): Notification {
  return {
    id: row.id,
    type: row.type as NotificationType,
    title: row.title,
    body: row.body,
    createdAt: row.createdAt.toISOString(),
    readAt: row.readAt ? row.readAt.toISOString() : null,
  };
}

// What the bell can tell a member and where each notice leads, without schemas: the layout's bell loads no
// validation code (issue 17). The schemas are in notifications.ts.

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
  'data.export_ready',
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
  'data.export_ready': '/profile#privacy',
};

/** Notifications a page of GET /api/notifications holds at most. */
export const NOTIFICATIONS_PAGE_SIZE = 20;
/** Ids one POST /api/notifications/read may name. */
export const NOTIFICATIONS_READ_MAX_IDS = 100;

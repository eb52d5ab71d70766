import { z } from 'zod';
import { CLOSE_CONFIRMATION } from './constants';
import { messages } from './messages';
import { stepUpFields } from './security';

/**
 * The rights the Privacy Policy promises (issue 34): take my data with me (the export), close my account, and choose
 * which mail I get (per kind, with one-click unsubscribe). Each rule's numbers and messages live here once.
 */
const p = messages.privacy;


export const DATA_EXPORT_STATUSES = ['pending', 'ready'] as const;
export type DataExportStatus = (typeof DATA_EXPORT_STATUSES)[number];

/** An item of GET /api/users/data-export, and the 202 answer of POST /api/users/data-export. */
export const dataExportSchema = z.object({
  id: z.string(),
  status: z.enum(DATA_EXPORT_STATUSES),
  createdAt: z.string(),
  /** When the download link stops working (7 days after the export was asked for). */
  expiresAt: z.string(),
});
export type DataExport = z.infer<typeof dataExportSchema>;
export const dataExportListSchema = z.array(dataExportSchema);

/** POST /api/users/data-export: the step-up (the password, or the 2FA code when 2FA is on). */
export const dataExportBody = z.object({ ...stepUpFields });
export type DataExportBody = z.input<typeof dataExportBody>;

export const dataExportParams = z.object({ id: z.string().max(100) });

/** The answer of POST /api/users/close is messageResponse (auth.ts): {message}. */

/** POST /api/users/close: the step-up and the typed confirmation. */
export const closeAccountBody = z.object({
  ...stepUpFields,
  confirm: z.literal(CLOSE_CONFIRMATION, { error: p.confirmRequired }),
});
export type CloseAccountBody = z.input<typeof closeAccountBody>;


/**
 * The kinds of mail a member can switch off. Security mails (codes, reset links, two-factor changes, withdrawal
 * confirmations, account closing) are not among them: they always go and carry no unsubscribe link.
 */
export const NOTIFICATION_PREFERENCE_KINDS = ['dividends', 'kyc', 'withdrawals', 'payments', 'membership', 'projects'] as const;
export type NotificationPreferenceKind = (typeof NOTIFICATION_PREFERENCE_KINDS)[number];

/** `dividends` and `projects` (the marketing kind) are off until the member turns them on. */
export const NOTIFICATION_PREFERENCE_DEFAULTS: Record<NotificationPreferenceKind, boolean> = {
  dividends: false,
  kyc: true,
  withdrawals: true,
  payments: true,
  membership: true,
  projects: false,
};

/** The labels the Notifications screen and the unsubscribe page show for each kind. */
export const NOTIFICATION_PREFERENCE_LABELS: Record<NotificationPreferenceKind, string> = {
  dividends: 'Dividends paid',
  kyc: 'KYC verification',
  withdrawals: 'Withdrawals',
  payments: 'Pack payments',
  membership: 'Membership',
  projects: 'New projects',
};

/** An object of one `field` for each kind, in the order of NOTIFICATION_PREFERENCE_KINDS. */
const eachKind = <Field extends z.ZodType>(field: Field) =>
  z.object(Object.fromEntries(NOTIFICATION_PREFERENCE_KINDS.map((kind) => [kind, field])) as Record<NotificationPreferenceKind, Field>);

/** GET /api/users/notification-preferences, and the answer of its PATCH. */
export const notificationPreferencesSchema = eachKind(z.boolean());
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;

/** PATCH /api/users/notification-preferences: any of the kinds; the answer is the whole object. */
export const updateNotificationPreferencesBody = eachKind(z.boolean({ error: p.preferenceInvalid }).optional());
export type UpdateNotificationPreferencesBody = z.input<typeof updateNotificationPreferencesBody>;

/** The signed token of an unsubscribe link (`/unsubscribe?token=…`). */
export const unsubscribeToken = z.string({ error: p.unsubscribeInvalid }).min(1, p.unsubscribeInvalid).max(500, p.unsubscribeInvalid);

/** POST /api/unsubscribe, sent by the web app's unsubscribe page. */
export const unsubscribeBody = z.object({ token: unsubscribeToken });
export type UnsubscribeBody = z.input<typeof unsubscribeBody>;

/** `POST /unsubscribe?token=…`, the RFC 8058 one-click address that mail clients post to. */
export const unsubscribeQuery = z.object({ token: unsubscribeToken });

export const unsubscribeResponse = z.object({ kind: z.enum(NOTIFICATION_PREFERENCE_KINDS), message: z.string() });
export type UnsubscribeResponse = z.infer<typeof unsubscribeResponse>;

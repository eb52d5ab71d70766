import { eq } from 'drizzle-orm';
import {
  NOTIFICATION_PREFERENCE_DEFAULTS,
  NOTIFICATION_PREFERENCE_KINDS,
  UUID_PATTERN,
  type NotificationPreferenceKind,
  type NotificationPreferences,
} from '@terrafund/contracts';
import type { Executor } from '../../db/client';
import { notificationPreferences } from '../../db/schema';
import type { Secrets } from '../../lib/crypto';

/**
 * The member's choice of optional mail (issue 34), read where mail is queued: a kind switched off is not queued at
 * all, a kind on gets the one-click unsubscribe headers (RFC 8058). No row means the defaults.
 */
export async function preferencesOf(db: Executor, userId: string): Promise<NotificationPreferences> {
  const [row] = await db.select().from(notificationPreferences).where(eq(notificationPreferences.userId, userId)).limit(1);
  if (!row) return { ...NOTIFICATION_PREFERENCE_DEFAULTS };
  return {
    dividends: row.dividends,
    kyc: row.kyc,
    withdrawals: row.withdrawals,
    payments: row.payments,
    membership: row.membership,
    projects: row.projects,
  };
}

/** Writes the kinds given, keeping the others (the defaults when the member had no row yet); answers the whole set. */
export async function savePreferences(
  db: Executor,
  userId: string,
  changes: Partial<NotificationPreferences>,
  now: Date,
): Promise<NotificationPreferences> {
  const given = Object.fromEntries(Object.entries(changes).filter(([, value]) => typeof value === 'boolean')) as Partial<NotificationPreferences>;
  const [row] = await db
    .insert(notificationPreferences)
    .values({ ...NOTIFICATION_PREFERENCE_DEFAULTS, ...given, userId, updatedAt: now })
    .onConflictDoUpdate({ target: notificationPreferences.userId, set: { ...given, updatedAt: now } })
    .returning();
  return {
    dividends: row!.dividends,
    kyc: row!.kyc,
    withdrawals: row!.withdrawals,
    payments: row!.payments,
    membership: row!.membership,
    projects: row!.projects,
  };
}

/**
 * The token of an unsubscribe link: `<user id>.<kind>.<HMAC>`. It can only turn that one kind off for that one
 * member, so it needs no expiry and no sign-in (a mail client posts it on its own, RFC 8058); the HMAC is keyed by
 * APP_SECRET, so nobody can make one for another member or kind.
 */
const signed = (userId: string, kind: NotificationPreferenceKind) => `unsubscribe:v1:${userId}:${kind}`;

export function unsubscribeToken(secrets: Secrets, userId: string, kind: NotificationPreferenceKind): string {
  return `${userId}.${kind}.${secrets.hash(signed(userId, kind))}`;
}

/** The member and kind a token names, or null for anything that is not a token this server made. */
export function readUnsubscribeToken(secrets: Secrets, token: string): { userId: string; kind: NotificationPreferenceKind } | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [userId, kind, signature] = parts as [string, string, string];
  if (!UUID_PATTERN.test(userId) || !(NOTIFICATION_PREFERENCE_KINDS as readonly string[]).includes(kind)) return null;
  if (!/^[0-9a-f]{64}$/.test(signature)) return null;
  const typedKind = kind as NotificationPreferenceKind;
  return secrets.matches(signed(userId, typedKind), signature) ? { userId, kind: typedKind } : null;
}

/** The link of an unsubscribe header and of the line at the foot of an optional mail. */
export const unsubscribeUrl = (publicUrl: string, token: string) => `${publicUrl}/unsubscribe?token=${encodeURIComponent(token)}`;

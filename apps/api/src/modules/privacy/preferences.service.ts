import { eq } from 'drizzle-orm';
import {
  messages,
  NOTIFICATION_PREFERENCE_LABELS,
  type NotificationPreferences,
  type UnsubscribeResponse,
  type updateNotificationPreferencesBody,
} from '@terrafund/contracts';
import type { z } from 'zod';
import { notificationPreferences, users } from '../../db/schema';
import type { Deps } from '../../deps';
import { AppError } from '../../lib/app-error';
import { preferencesOf, readUnsubscribeToken, savePreferences } from '../mail';

/** GET /api/users/notification-preferences: the member's choice, the defaults until they change one. */
export const getPreferences = (deps: Pick<Deps, 'db'>, userId: string) => preferencesOf(deps.db, userId);

/**
 * PATCH /api/users/notification-preferences: any of the kinds; answers the whole set. Turning dividends on starts
 * the dividends mail from now (the payouts before are not mailed).
 */
export async function updatePreferences(
  deps: Pick<Deps, 'db' | 'clock'>,
  userId: string,
  body: z.output<typeof updateNotificationPreferencesBody>,
): Promise<NotificationPreferences> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const before = await preferencesOf(tx, userId);
    const saved = await savePreferences(tx, userId, body, now);
    if (saved.dividends && !before.dividends) {
      await tx.update(notificationPreferences).set({ dividendsMailedThrough: now }).where(eq(notificationPreferences.userId, userId));
    }
    return saved;
  });
}

/**
 * An unsubscribe link followed (RFC 8058 one-click POST, or the web page's button): turns that kind off for the
 * member the token names, without a sign-in. A token this server did not make is 400.
 */
export async function unsubscribe(deps: Pick<Deps, 'db' | 'clock' | 'secrets'>, token: string): Promise<UnsubscribeResponse> {
  const named = readUnsubscribeToken(deps.secrets, token);
  if (!named) throw new AppError('VALIDATION_ERROR', messages.privacy.unsubscribeInvalid, { fields: { token: messages.privacy.unsubscribeInvalid } });
  const [member] = await deps.db.select({ id: users.id }).from(users).where(eq(users.id, named.userId)).limit(1);
  if (!member) throw new AppError('VALIDATION_ERROR', messages.privacy.unsubscribeInvalid, { fields: { token: messages.privacy.unsubscribeInvalid } });
  await savePreferences(deps.db, named.userId, { [named.kind]: false }, deps.clock.now());
  return { kind: named.kind, message: messages.privacy.unsubscribed(NOTIFICATION_PREFERENCE_LABELS[named.kind].toLowerCase()) };
}

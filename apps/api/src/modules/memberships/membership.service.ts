import { and, desc, inArray, ne } from 'drizzle-orm';
import { PACKS, type MembershipView, type PackId } from '@terrafund/contracts';
import type { Executor } from '../../db/client';
import { memberships, type MembershipRow } from '../../db/schema';
import type { Clock } from '../../lib/clock';

/**
 * The membership rules (docs/product.md §5.5 Memberships, §5.6 Dividends): business days are Monday to Friday,
 * UTC; a membership runs 3 years from activation and ends at the payout time of its last paid day
 * (membershipEnd, the one definition every reader uses); what the API shows of it.
 */

export const DAY_MS = 86_400_000;

/** Minutes after midnight UTC of `HH:MM` (00:00–23:59). */
export function parsePayoutTime(value: string): number {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(value);
  if (!match) throw new Error(`PAYOUT_TIME must be HH:MM (UTC), got "${value}"`);
  return Number(match[1]) * 60 + Number(match[2]);
}

/** The UTC date (YYYY-MM-DD) of an instant in milliseconds, and the instant that date starts. */
export const dayString = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const dayStart = (day: string) => Date.parse(`${day}T00:00:00.000Z`);
export const isBusinessDay = (day: string) => {
  const weekday = new Date(dayStart(day)).getUTCDay();
  return weekday !== 0 && weekday !== 6;
};
/** The moment the dividend of `day` is due. */
export const dueAt = (day: string, payoutMinutes: number) => new Date(dayStart(day) + payoutMinutes * 60_000);

/** The latest business day on or before `day`. */
export function businessDayUpTo(day: string): string {
  let ms = dayStart(day);
  while (!isBusinessDay(dayString(ms))) ms -= DAY_MS;
  return dayString(ms);
}

/**
 * The end of a membership (docs/product.md §5.5 Memberships), the one definition every reader uses: it runs 3 years from
 * activation (`ends_at` = activation + 3 years), and its last paid day is the last business day on or before
 * the UTC date of `ends_at`; it has ended at that day's payout time, when its last dividend is due. The payout
 * rule (modules/payouts/payouts.service.ts) (`ends_at >= D 00:00` for a business day D) pays exactly the business days up to that last paid day.
 */
export function membershipEnd(m: { endsAt: Date }, payoutTime = '00:00'): { lastPaidDay: string; endedAt: Date } {
  const lastPaidDay = businessDayUpTo(dayString(m.endsAt.getTime()));
  return { lastPaidDay, endedAt: dueAt(lastPaidDay, parsePayoutTime(payoutTime)) };
}

/** Whether the membership has ended at `now` (see membershipEnd). */
export const hasEnded = (m: { endsAt: Date }, now: Date, payoutTime = '00:00') =>
  now.getTime() >= membershipEnd(m, payoutTime).endedAt.getTime();

/** The last calendar day whose payout time has passed at `now` (a weekend day is possible; it pays nothing). */
export function lastDueDay(now: Date, payoutMinutes: number): string {
  return dayString(now.getTime() - payoutMinutes * 60_000);
}

/** The values of a new membership of `pack` starting at `startedAt` (3 years), priced from the pack list. */
export function newMembershipValues(userId: string, pack: PackId, startedAt: Date, depositTransactionId?: string) {
  const info = PACKS.find((p) => p.id === pack);
  if (!info) throw new Error(`unknown pack ${pack}`);
  const endsAt = new Date(startedAt);
  endsAt.setUTCFullYear(endsAt.getUTCFullYear() + 3);
  return {
    userId,
    pack,
    priceCents: Math.round(info.price * 100),
    dailyDividendCents: Math.round(info.dailyDividend * 100),
    startedAt,
    endsAt,
    status: 'active' as const,
    depositTransactionId: depositTransactionId ?? null,
    createdAt: startedAt,
  };
}

/** A member's current membership, the row and what the API shows of it. */
export type CurrentMembership = { row: MembershipRow; view: MembershipView; ended: boolean };

/**
 * What the API shows of a membership at `now`: pack, start, end (membershipEnd, the one definition) and
 * whether it has ended. It has ended once its last dividend is due, whether or not the periodic job
 * (membership-end.service.ts) has marked the row `ended` yet, so every answer is right from that instant on.
 */
export function membershipView(row: MembershipRow, now: Date, payoutTime: string): CurrentMembership {
  const { lastPaidDay, endedAt } = membershipEnd(row, payoutTime);
  const ended = row.status === 'ended' || now.getTime() >= endedAt.getTime();
  return {
    row,
    ended,
    view: {
      pack: row.pack,
      status: ended ? 'ended' : 'active',
      startedAt: row.startedAt.toISOString(),
      endsAt: endedAt.toISOString(),
      lastPaidDay,
      endedAt: ended ? endedAt.toISOString() : null,
    },
  };
}

/**
 * The current membership of each member: their latest one that was not replaced by a switch (the active one,
 * or the one that ended last when they have not bought a new pack since). Absent for members who never had one.
 */
export async function currentMemberships(
  db: Executor,
  deps: { clock: Clock; config: { payoutTime: string } },
  userIds: string[],
): Promise<Map<string, CurrentMembership>> {
  const result = new Map<string, CurrentMembership>();
  if (userIds.length === 0) return result;
  const rows = await db
    .selectDistinctOn([memberships.userId])
    .from(memberships)
    .where(and(inArray(memberships.userId, userIds), ne(memberships.status, 'replaced')))
    .orderBy(memberships.userId, desc(memberships.startedAt));
  const now = deps.clock.now();
  for (const row of rows) result.set(row.userId, membershipView(row, now, deps.config.payoutTime));
  return result;
}

/** "gold" → "Gold", as mails and descriptions name a pack. */
export const packName = (pack: PackId) => {
  const name = PACKS.find((p) => p.id === pack)?.name ?? pack;
  return name.charAt(0).toUpperCase() + name.slice(1);
};

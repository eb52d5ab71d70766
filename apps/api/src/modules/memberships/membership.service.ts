import { and, desc, inArray, ne } from 'drizzle-orm';
import { PACKS, type MembershipView, type PackId } from '@terrafund/contracts';
import type { Executor } from '../../db/client';
import { memberships, type MembershipRow } from '../../db/schema';
import { membershipEnd } from '../../jobs/payouts';
import type { Clock } from '../../lib/clock';

/** A member's current membership, the row and what the API shows of it. */
export type CurrentMembership = { row: MembershipRow; view: MembershipView; ended: boolean };

/**
 * What the API shows of a membership at `now`: pack, start, end (membershipEnd, the one definition) and
 * whether it has ended. It has ended once its last dividend is due, whether or not the periodic job
 * (jobs/membership-end.ts) has marked the row `ended` yet, so every answer is right from that instant on.
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

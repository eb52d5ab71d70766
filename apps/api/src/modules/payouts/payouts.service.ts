import { and, eq } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client';
import { memberships } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { businessDayUpTo, DAY_MS, dayStart, dayString, dueAt, isBusinessDay, lastDueDay, membershipEnd, parsePayoutTime } from '../memberships';
import { earliestUnpaidDay, inSlices, pacingOf, payPass, type Pacing } from './payouts.repository';

/**
 * The daily dividend run (docs/product.md §5.6 Dividends, §12 Running it), scheduled by jobs/payout-scheduler.ts.
 *
 * Rule. Business days are Monday to Friday, UTC. The dividend of business day D is due at PAYOUT_TIME (UTC) on D
 * for every membership activated before D and ending on or after D:
 *     started_at < D 00:00 UTC  and  ends_at >= D 00:00 UTC  (its last paid day is the UTC date of ends_at)
 * A `replaced` membership is paid while it was still the member's membership at the start of D:
 *     replaced_at is null  or  replaced_at >= D 00:00 UTC
 * so on the day of a switch the old pack is paid (it was active at 00:00) and the new one from the next business
 * day: whatever the time the job runs, every day has exactly one paying membership per member. Status is not
 * read otherwise: an `ended` membership is still paid for the days its window covers (a catch-up after downtime).
 *
 * Exactly once. A day is paid in passes over consecutive memberships (payDay); each pass is one database
 * transaction that first takes a transaction-scoped advisory lock, so two runs (two timers, two servers)
 * serialise pass by pass and each skips what the other paid. A pass claims, records and credits each of its
 * memberships in one set-based statement, so a membership's day is paid entirely or not at all; the primary
 * key of dividend_payouts (membership, day) is the database's own guarantee, whatever the code does.
 *
 * In order. A pass pays day D only to a membership whose days before D are all paid (no due business day
 * between its last paid day, or its activation, and D), so a membership's paid days never have a gap: a
 * membership behind is left for the catch-up, which pays its days oldest first.
 *
 * The usual run is one walk over the memberships: it pays the latest business day due to every membership
 * whose only unpaid day it is, and counts the memberships behind. Only when some are (downtime, a stopped run)
 * does the run catch up: it pays every due business day not yet paid, oldest first, from the earliest unpaid due
 * day of any membership up to the last day whose PAYOUT_TIME has passed, in chunks of at most
 * MAX_DAYS_PER_CHUNK days.
 */
const MAX_DAYS_PER_CHUNK = 31;

export type PayoutRunResult = {
  /**
   * The business days processed (YYYY-MM-DD), oldest first: the latest due day when the run paid anything on
   * it, and every day of a catch-up, including those where nothing was left to pay.
   */
  days: string[];
  /** Dividends paid by this run. */
  paid: number;
  amountCents: number;
};

export type PayoutOptions = { clock: Clock; payoutTime?: string };

/**
 * Pays business day `day` to every membership due and unpaid whose earlier days are all paid, in passes over
 * consecutive memberships (see inSlices), each its own database transaction under the payout lock, and counts
 * the memberships behind. A run stopped between passes leaves the day partly paid, never half-paid for one
 * membership: the next run finds the rest and pays only that.
 */
async function payDay(db: Database, day: string, now: Date, payoutMinutes: number, pacing: Pacing) {
  const times = { now: now.toISOString(), due: dueAt(day, payoutMinutes).toISOString() };
  const total = { paid: 0, amountCents: 0, behind: 0 };
  let entries = 0;
  await inSlices(pacing, async (after, limit) => {
    const pass = await payPass(db, day, times, after, limit, entries);
    total.paid += pass.paid;
    total.amountCents += pass.amountCents;
    total.behind += pass.behind;
    entries = pass.entries;
    return pass;
  });
  return total;
}


/**
 * Pays every business day that is due and not yet paid (see the rule above). Safe to run at any time, as often
 * as wanted, from several processes at once: a day already paid pays nothing.
 */
export async function runPayouts(db: Database, options: PayoutOptions): Promise<PayoutRunResult> {
  const payoutMinutes = parsePayoutTime(options.payoutTime ?? '00:00');
  const now = options.clock.now();
  const last = lastDueDay(now, payoutMinutes);
  const result: PayoutRunResult = { days: [], paid: 0, amountCents: 0 };
  const pacing = pacingOf(db);
  const days = new Set<string>();

  // The usual run: one walk over the memberships pays the latest due business day to every membership whose
  // earlier days are paid (all of them, when yesterday's run went well), and tells whether any is behind.
  const latest = businessDayUpTo(last);
  const usual = await payDay(db, latest, now, payoutMinutes, pacing);
  result.paid += usual.paid;
  result.amountCents += usual.amountCents;
  if (usual.paid > 0) days.add(latest);
  if (usual.behind === 0) {
    result.days = [...days];
    return result;
  }

  // Some membership is behind (the server was down, a run stopped): pay every due day, oldest first.
  let cursor: string | null = null;
  for (;;) {
    // Never go back within one run: a day skipped here is found by the next run (so no need to look again).
    if (cursor && cursor > last) break;
    const earliest = await earliestUnpaidDay(db, last, pacing);
    if (!earliest) break;
    const start: string = cursor && cursor > earliest ? cursor : earliest;
    if (start > last) break;
    const startMs = dayStart(start);
    const endMs = Math.min(startMs + (MAX_DAYS_PER_CHUNK - 1) * DAY_MS, dayStart(last));
    for (let ms = startMs; ms <= endMs; ms += DAY_MS) {
      const day = dayString(ms);
      if (!isBusinessDay(day)) continue;
      const paid = await payDay(db, day, now, payoutMinutes, pacing);
      days.add(day);
      result.paid += paid.paid;
      result.amountCents += paid.amountCents;
    }
    cursor = dayString(endMs + DAY_MS);
  }
  result.days = [...days].sort();
  return result;
}

export type NextPayout = { amount: number; time: string; remainingTime: number };

/**
 * The next payout of a member's active membership: the first business day D whose payout time is still ahead
 * and which the membership is due for (activated before D, ending on or after D). Null without an active
 * membership, or when its last payable day is past.
 */
export async function nextPayoutFor(db: Executor, userId: string, clock: Clock, payoutTime = '00:00'): Promise<NextPayout | null> {
  const payoutMinutes = parsePayoutTime(payoutTime);
  const [membership] = await db
    .select()
    .from(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.status, 'active')));
  if (!membership) return null;
  const now = clock.now();
  const firstDay = dayString(membership.startedAt.getTime() + DAY_MS); // the day after activation (UTC date)
  const lastDay = membershipEnd(membership, payoutTime).lastPaidDay;
  let day = [lastDueDay(now, payoutMinutes), dayString(dayStart(firstDay) - DAY_MS)].sort()[1]!;
  for (let i = 0; i < 10; i += 1) {
    day = dayString(dayStart(day) + DAY_MS);
    if (day > lastDay) return null;
    if (isBusinessDay(day) && day >= firstDay) {
      const time = dueAt(day, payoutMinutes);
      return {
        amount: membership.dailyDividendCents / 100,
        time: time.toISOString(),
        remainingTime: Math.max(0, Math.ceil((time.getTime() - now.getTime()) / 1000)),
      };
    }
  }
  return null;
}

/** Milliseconds from `now` to the next PAYOUT_TIME (UTC). */
export function msUntilNextPayout(now: Date, payoutTime: string): number {
  const minutes = parsePayoutTime(payoutTime);
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + minutes * 60_000;
  const next = today > now.getTime() ? today : today + DAY_MS;
  return next - now.getTime();
}

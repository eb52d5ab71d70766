import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';

/**
 * Reading `transaction_totals` (migration 0010): count and sum of transactions per UTC day, type and status,
 * kept by triggers. A figure over whole days reads at most one row per bucket per day; a window that starts or
 * ends inside a day adds that day's own rows from `transactions` (an index range, one day's worth).
 */

const DAY_MS = 86_400_000;
/** The UTC date (YYYY-MM-DD) of an instant. */
export const dayOf = (ms: number) => new Date(Math.floor(ms / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
const at = (ms: number) => sql`${new Date(ms).toISOString()}::timestamptz`;

/**
 * Merges the rows of every bucket that has several into one (dropping buckets that sum to nothing). Rows
 * another transaction is merging are skipped, never waited for; rows of transactions not yet committed are not
 * seen. The sums are the same before and after, so this may run at any time, by any number of servers.
 */
export async function foldTransactionTotals(db: Database) {
  await db.execute(sql`
    with taken as (
      delete from transaction_totals
      where ctid = any(array(
        select t.ctid
        from transaction_totals t
        join (select type, status, day from transaction_totals group by type, status, day having count(*) > 1) b
          on b.type = t.type and b.status = t.status and b.day = t.day
        for update of t skip locked
      ))
      returning day, type, status, count, amount_cents
    )
    insert into transaction_totals (day, type, status, count, amount_cents)
    select day, type, status, sum(count), sum(amount_cents)
    from taken
    group by day, type, status
    having sum(count) <> 0 or sum(amount_cents) <> 0`);
}

/** Cents of completed transactions matching `where` (on type) dated in [fromMs, toMs) by whole UTC days. */
const completedCentsOnDays = (where: SQL, fromMs: number, toMs: number) => sql`(
  select coalesce(sum(amount_cents), 0) from transaction_totals
  where status = 'completed' and ${where} and day >= ${dayOf(fromMs)}::date and day < ${dayOf(toMs)}::date
)`;

/**
 * Cents of completed transactions matching `where` (on type) with `afterMs < created_at <= untilMs`: the whole
 * days inside from the totals, the two partial days at the ends from the rows themselves.
 */
export function completedCentsBetween(where: SQL, afterMs: number, untilMs: number): SQL {
  const rows = (condition: SQL) => sql`(
    select coalesce(sum(amount_cents), 0) from transactions where status = 'completed' and ${where} and ${condition}
  )`;
  const firstWholeDay = Math.floor(afterMs / DAY_MS) * DAY_MS + DAY_MS;
  const lastDayStart = Math.floor(untilMs / DAY_MS) * DAY_MS;
  if (firstWholeDay > lastDayStart) return rows(sql`created_at > ${at(afterMs)} and created_at <= ${at(untilMs)}`);
  return sql`(${completedCentsOnDays(where, firstWholeDay, lastDayStart)}
    + ${rows(sql`created_at > ${at(afterMs)} and created_at < ${at(firstWholeDay)}`)}
    + ${rows(sql`created_at >= ${at(lastDayStart)} and created_at <= ${at(untilMs)}`)})`;
}

/** Cents of the completed payouts of the latest UTC day before `beforeMs` (a day start) on which any were paid. */
export const latestPayoutDayCents = (beforeMs: number) => sql`(
  select coalesce(sum(t.amount_cents), 0)
  from transaction_totals t
  where t.type = 'payout' and t.status = 'completed' and t.day = (
    select day from transaction_totals
    where type = 'payout' and status = 'completed' and day < ${dayOf(beforeMs)}::date
    group by day having sum(count) > 0
    order by day desc limit 1
  )
)`;

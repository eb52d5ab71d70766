import { and, eq, sql } from 'drizzle-orm';
import { PACKS, type PackId } from '@terrafund/contracts';
import { queryRows, type Database, type Executor } from '../db/client';
import { memberships } from '../db/schema';
import type { Clock } from '../lib/clock';

/**
 * The daily dividend job (decisions sections 3 and 7).
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
 * Exactly once. Each day is paid in one database transaction that first takes a transaction-scoped advisory
 * lock, so two runs (two timers, two servers) serialise and the second finds the day paid. Under the lock the
 * pass is a fixed number of set-based statements whatever the number of memberships; the primary key of
 * dividend_payouts (membership, day) is the database's own guarantee, whatever the code does.
 *
 * Catch-up. A run pays every due business day not yet paid, oldest first, from the earliest unpaid due day of
 * any membership up to the last day whose PAYOUT_TIME has passed, in chunks of at most MAX_DAYS_PER_CHUNK days.
 */

/** An arbitrary constant: the advisory lock that serialises payout passes across processes and servers. */
export const PAYOUT_LOCK_ID = 7_340_022;
const MAX_DAYS_PER_CHUNK = 31;
const DAY_MS = 86_400_000;

export type PayoutRunResult = {
  /** The business days processed (YYYY-MM-DD), including those where nothing was left to pay. */
  days: string[];
  /** Dividends paid by this run. */
  paid: number;
  amountCents: number;
};

export type PayoutOptions = { clock: Clock; payoutTime?: string };

/** Minutes after midnight UTC of `HH:MM` (00:00–23:59). */
export function parsePayoutTime(value: string): number {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(value);
  if (!match) throw new Error(`PAYOUT_TIME must be HH:MM (UTC), got "${value}"`);
  return Number(match[1]) * 60 + Number(match[2]);
}

const dayString = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayStart = (day: string) => Date.parse(`${day}T00:00:00.000Z`);
export const isBusinessDay = (day: string) => {
  const weekday = new Date(dayStart(day)).getUTCDay();
  return weekday !== 0 && weekday !== 6;
};
/** The moment the dividend of `day` is due. */
export const dueAt = (day: string, payoutMinutes: number) => new Date(dayStart(day) + payoutMinutes * 60_000);

/** The last calendar day whose payout time has passed at `now` (a weekend day is possible; it pays nothing). */
function lastDueDay(now: Date, payoutMinutes: number): string {
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

/** The SQL instant D 00:00 UTC of a YYYY-MM-DD parameter. */
const startOf = (day: string) => sql`(${day}::date::timestamp at time zone 'UTC')`;

/** Memberships due on `day` (see the rule above), as a condition on alias `m`. */
const dueOn = (day: string) => sql`
  m.started_at < ${startOf(day)} and m.ends_at >= ${startOf(day)}
  and (m.replaced_at is null or m.replaced_at >= ${startOf(day)})`;

/**
 * The earliest day, not after `last`, some membership is due and not yet paid: after its last paid day, or the
 * day after its activation. Days before a membership's last paid day are never unpaid (each pass pays every
 * membership due that day, and a membership's window only shrinks after activation).
 */
async function earliestUnpaidDay(db: Executor, last: string): Promise<string | null> {
  const [row] = await queryRows<{ day: string | null }>(db, sql`
    select min(c.candidate)::text as day
    from memberships m
    cross join lateral (
      select greatest(
        (m.started_at at time zone 'UTC')::date + 1,
        coalesce((select max(p.business_day) from dividend_payouts p where p.membership_id = m.id) + 1, '-infinity'::date)
      ) as candidate
    ) c
    where c.candidate <= least(
      (m.ends_at at time zone 'UTC')::date,
      coalesce((m.replaced_at at time zone 'UTC')::date, 'infinity'::date),
      ${last}::date
    )`);
  return row?.day ?? null;
}

/** Pays business day `day` to every membership due and unpaid, in one transaction under the payout lock. */
async function payDay(db: Database, day: string, now: Date, payoutMinutes: number) {
  const nowIso = now.toISOString();
  const dueIso = dueAt(day, payoutMinutes).toISOString();
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${PAYOUT_LOCK_ID})`);

    // 1. Every member due a dividend has a wallet account (as memberAccount() would create it).
    await tx.execute(sql`
      insert into ledger_accounts (code, user_id, kind)
      select distinct 'member:' || m.user_id::text || ':wallet', m.user_id, 'member_wallet'
      from memberships m
      where ${dueOn(day)}
        and not exists (select 1 from dividend_payouts p where p.membership_id = m.id and p.business_day = ${day}::date)
      on conflict (code) do nothing`);

    // 2. One statement: claim the (membership, day) rows, write the member transactions, one journal entry for
    //    the batch, one posting per wallet and one on platform:dividends_paid. Ids are drawn up front so every
    //    row can name the others; the foreign keys and the balance trigger run at the end of the statement,
    //    and the entry's zero sum is checked at commit.
    const [result] = await queryRows<{ paid: number; total: string }>(tx, sql`
      with due as materialized (
        select m.id as membership_id, m.user_id, m.pack, m.daily_dividend_cents as amount_cents,
               gen_random_uuid() as transaction_id
        from memberships m
        where ${dueOn(day)}
          and not exists (select 1 from dividend_payouts p where p.membership_id = m.id and p.business_day = ${day}::date)
      ),
      batch as materialized (
        select gen_random_uuid() as entry_id,
               'payouts:' || ${day}::text || ':'
                 || ((select count(distinct p.entry_id) from dividend_payouts p where p.business_day = ${day}::date) + 1)::text
                 as idempotency_key
        where exists (select 1 from due)
      ),
      claimed as (
        insert into dividend_payouts (membership_id, business_day, amount_cents, transaction_id, entry_id, created_at)
        select d.membership_id, ${day}::date, d.amount_cents, d.transaction_id, b.entry_id, ${nowIso}::timestamptz
        from due d cross join batch b
        on conflict do nothing
        returning membership_id, transaction_id, amount_cents
      ),
      entry as (
        insert into journal_entries (id, kind, idempotency_key, description, metadata, created_at)
        select b.entry_id, 'payout_batch', b.idempotency_key, 'Daily dividends – ' || ${day}::text,
               jsonb_build_object(
                 'businessDay', ${day}::text,
                 'payouts', (select count(*) from claimed),
                 'totalCents', (select sum(c.amount_cents) from claimed c)),
               ${nowIso}::timestamptz
        from batch b
        where exists (select 1 from claimed)
        returning id
      ),
      member_transactions as (
        insert into transactions (id, user_id, type, amount_cents, status, description, plan, entry_id, created_at, updated_at)
        select c.transaction_id, d.user_id, 'payout', c.amount_cents, 'completed',
               'Daily dividend ' || d.pack || ' – ' || ${day}::text, d.pack, b.entry_id,
               ${dueIso}::timestamptz, ${dueIso}::timestamptz
        from claimed c join due d using (membership_id) cross join batch b
        returning id
      ),
      lines as (
        select a.id as account_id, c.amount_cents
        from claimed c
        join due d using (membership_id)
        join ledger_accounts a on a.code = 'member:' || d.user_id::text || ':wallet'
        union all
        select a.id, -sum(c.amount_cents)
        from claimed c cross join ledger_accounts a
        where a.code = 'platform:dividends_paid'
        group by a.id
      ),
      posted as (
        insert into postings (entry_id, account_id, amount_cents, created_at)
        select b.entry_id, l.account_id, l.amount_cents, ${nowIso}::timestamptz
        from lines l cross join batch b
        order by l.account_id
        returning id
      )
      select (select count(*) from claimed)::int as paid,
             coalesce((select sum(amount_cents) from claimed), 0)::text as total,
             (select count(*) from member_transactions) + (select count(*) from posted) + (select count(*) from entry) as written`);
    return { paid: Number(result?.paid ?? 0), amountCents: Number(result?.total ?? 0) };
  });
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

  let cursor: string | null = null;
  for (;;) {
    const earliest = await earliestUnpaidDay(db, last);
    if (!earliest) break;
    const start: string = cursor && cursor > earliest ? cursor : earliest;
    if (start > last) break;
    const startMs = dayStart(start);
    const endMs = Math.min(startMs + (MAX_DAYS_PER_CHUNK - 1) * DAY_MS, dayStart(last));
    for (let ms = startMs; ms <= endMs; ms += DAY_MS) {
      const day = dayString(ms);
      if (!isBusinessDay(day)) continue;
      const paid = await payDay(db, day, now, payoutMinutes);
      result.days.push(day);
      result.paid += paid.paid;
      result.amountCents += paid.amountCents;
    }
    // Never go back within one run: a day skipped here is found by the next run.
    cursor = dayString(endMs + DAY_MS);
  }
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
  const lastDay = dayString(membership.endsAt.getTime());
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

/** Payout rules checked from the stored rows (for checkLedger): each payout names its own transaction and entry. */
export async function checkPayouts(db: Executor): Promise<{ rule: string; detail: string }[]> {
  const rows = await queryRows<{ membership_id: string; business_day: string; problem: string }>(db, sql`
    select p.membership_id, p.business_day::text as business_day,
      case
        when t.id is null or t.type <> 'payout' or t.status <> 'completed' then 'transaction is not a completed payout'
        when t.amount_cents <> p.amount_cents or t.user_id <> m.user_id then 'transaction amount or member differs'
        when t.entry_id is distinct from p.entry_id then 'transaction and payout name different entries'
        when not exists (
          select 1 from postings x join ledger_accounts a on a.id = x.account_id
          where x.entry_id = p.entry_id and a.user_id = m.user_id and a.kind = 'member_wallet' and x.amount_cents > 0
        ) then 'entry credits no wallet of the member'
        when extract(isodow from p.business_day) > 5 then 'paid on a weekend'
      end as problem
    from dividend_payouts p
    join memberships m on m.id = p.membership_id
    left join transactions t on t.id = p.transaction_id`);
  return rows
    .filter((r) => r.problem)
    .map((r) => ({ rule: 'payout is a completed transaction and a wallet credit', detail: `${r.membership_id} ${r.business_day}: ${r.problem}` }));
}

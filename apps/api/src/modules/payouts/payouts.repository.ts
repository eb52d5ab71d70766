import { PGlite } from '@electric-sql/pglite';
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database, type Executor } from '../../db/client';

/**
 * The payout run's statements (the rule they implement: payouts.service.ts). Each pass is one set-based
 * statement under a transaction-scoped advisory lock; the walks go through the memberships in slices.
 */

/** An arbitrary constant: the advisory lock that serialises payout passes across processes and servers. */
export const PAYOUT_LOCK_ID = 7_340_022;
/**
 * Wallets credited per journal entry: an entry is a batch of a day's dividends, with one posting per wallet and
 * one on platform:dividends_paid. The ledger checks and applies a statement's postings as a set (migration
 * 0008), so an entry's size costs nothing in itself; batches keep each entry a size a person can read.
 */
const WALLETS_PER_ENTRY = 1_000;
/**
 * How long one slice of the work (a pass) should take, the pause after it, and the most memberships in one.
 * Embedded PGlite runs its queries on this process's event loop and a transaction holds it until it ends, so
 * the server answers a request only between passes, after a few turns of the loop (accept, read, answer):
 * short passes with a pause in between keep API latency low. On PostgreSQL a pass only holds the wallets it
 * credits (a member's withdrawal waits for the end of the pass that credits them, once a day), so it can be
 * longer: the more memberships a pass writes, the more often it finds the index pages it needs (wallets,
 * members, their postings and transactions, all in random order) still in shared buffers rather than reading
 * them again and writing them back. A pass of 50,000 takes a few seconds at 1,000,000 memberships
 * (docs/performance.md).
 */
export type Pacing = { targetMs: number; /** Pause after a slice, as a share of the time it took. */ pause: number; maxSlice: number };
const PACING: Record<'embedded' | 'server', Pacing> = {
  embedded: { targetMs: 50, pause: 0.25, maxSlice: 20_000 },
  server: { targetMs: 3_000, pause: 0, maxSlice: 50_000 },
};
export const pacingOf = (db: Database): Pacing => ((db as { $client?: unknown }).$client instanceof PGlite ? PACING.embedded : PACING.server);
/** Work memory of a pass's statement (see payPass): enough to sort the largest pass in memory. */
export const PASS_WORK_MEM = '64MB';
/** Memberships in the first slice; later ones are sized from the time the previous one took. */
const FIRST_SLICE = 100;
const MIN_SLICE = 50;

type Slice = { /** Memberships looked at, and the cursor of the last of them (walkAfter). */ lookedAt: number; last: string | null };

/**
 * Both walks go through the memberships in activation order, (started_at, id) on memberships_started_idx: the
 * order their rows were written in, and about the order their members and wallets were, so a slice reads
 * and writes neighbouring pages of each table. In id order (random UUIDs) every slice touched pages all over
 * each table: at 1,000,000 memberships the job read three times as many heap pages from outside shared buffers
 * (six times for the wallets) and wrote ten times as many full-page images to the WAL as one statement over
 * the same rows (docs/performance.md). A
 * cursor is the last membership's "started_at|id", the instant spelt to the microsecond in UTC.
 */
const walkAfter = (after: string | null) => {
  if (after === null) return sql`true`;
  const bar = after.indexOf('|');
  return sql`(m.started_at, m.id) > (${after.slice(0, bar)}::timestamptz, ${after.slice(bar + 1)}::uuid)`;
};
/** The cursor of the last row of `slice` (a CTE with started_at and the membership's id as `idColumn`). */
const lastCursor = (slice: SQL, idColumn: SQL) => sql`(
  select to_char(x.started_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '|' || x.${idColumn}::text
  from ${slice} x order by x.started_at desc, x.${idColumn} desc limit 1)`;

/**
 * Runs `step` over consecutive slices of the memberships in activation order (each starting after the last one
 * the previous slice looked at, see walkAfter), sized to take about `pacing.targetMs` each, yielding to the
 * event loop between them, until a slice comes back short. Walking an index keeps each slice's cost
 * proportional to its size, and the memory of the process flat, however many memberships there are.
 */
export async function inSlices<T extends Slice>(pacing: Pacing, step: (after: string | null, limit: number) => Promise<T>): Promise<void> {
  let after: string | null = null;
  let limit = FIRST_SLICE;
  for (;;) {
    // Wall time, not the injected clock: this measures the work itself, to size the next slice.
    const started = performance.now();
    const slice = await step(after, limit);
    if (slice.lookedAt < limit || slice.last === null) return;
    after = slice.last;
    const took = performance.now() - started;
    const scale = Math.min(2, Math.max(0.5, pacing.targetMs / Math.max(1, took)));
    limit = Math.round(Math.min(pacing.maxSlice, Math.max(MIN_SLICE, limit * scale)));
    await new Promise((resolve) => (pacing.pause > 0 ? setTimeout(resolve, took * pacing.pause) : setImmediate(resolve)));
  }
}

/** The SQL instant D 00:00 UTC of a YYYY-MM-DD parameter. */
const startOf = (day: string) => sql`(${day}::date::timestamp at time zone 'UTC')`;

/** The first business day on or after the SQL date `date` (a Saturday or a Sunday moves to the Monday). */
const businessDayFrom = (date: SQL) => sql`(${date} + case extract(isodow from ${date}) when 6 then 2 when 7 then 1 else 0 end)`;

/**
 * A new id for a row the job writes: a UUID version 7 (RFC 9562), the current millisecond then random bits,
 * as PostgreSQL 18's uuidv7() draws it (spelt out for PostgreSQL 15 to 17 and PGlite). Ids drawn in order are
 * written at the right-hand edge of their indexes (the primary keys of transactions and postings, the unique
 * transaction of dividend_payouts, the entry index of postings), a few pages a pass, where random ids need one
 * page each, read and written back again at every pass once those indexes outgrow shared buffers.
 */
export const NEW_ID_SQL =
  `encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) placing substring(int8send(floor(extract(epoch from clock_timestamp()) * 1000)::bigint) from 3) from 1), 52, 1), 53, 1), 'hex')::uuid`;
const newId = sql.raw(NEW_ID_SQL);

/** Memberships due on `day` (the rule: payouts.service.ts), as a condition on alias `m`. */
const dueOn = (day: string) => sql`
  m.started_at < ${startOf(day)} and m.ends_at >= ${startOf(day)}
  and (m.replaced_at is null or m.replaced_at >= ${startOf(day)})`;

/**
 * The first day a membership (alias `m`: id, started_at) may still be unpaid: the day after its last paid day,
 * or the day after its activation. The latest payout is a scalar subquery, a backward probe of the primary key
 * whatever the statistics say (taken before today's payouts existed, they would plan a test of the day on the
 * business_day index, or an anti-join, reading all the day's payouts so far).
 */
const unpaidFrom = sql`greatest((m.started_at at time zone 'UTC')::date + 1,
  (select max(p.business_day) from dividend_payouts p where p.membership_id = m.id) + 1)`;
/** The last day a membership (alias `m`) can be paid for: the day it ends, or the day it was replaced. */
const lastPayableDay = sql`least((m.ends_at at time zone 'UTC')::date, coalesce((m.replaced_at at time zone 'UTC')::date, 'infinity'::date))`;

/**
 * The earliest day, not after `last`, some membership is due and not yet paid: after its last paid day, or the
 * day after its activation. Days before a membership's last paid day are never unpaid (a pass pays a day only
 * to a membership whose earlier due days are paid, and a membership's window only shrinks after activation).
 * Every membership is looked at, in slices (see inSlices); the last paid day is a backward probe of the primary
 * key.
 */
export async function earliestUnpaidDay(db: Database, last: string, pacing: Pacing): Promise<string | null> {
  let earliest: string | null = null;
  await inSlices(pacing, (after, limit) =>
    db.transaction(async (tx) => {
      await tx.execute(sql`set local jit = off`); // see payPass
      const [row] = await queryRows<{ looked_at: number; last: string | null; day: string | null }>(tx, sql`
        with slice as materialized (
          select m.id, m.started_at, m.ends_at, m.replaced_at from memberships m
          where ${walkAfter(after)}
          order by m.started_at, m.id
          limit ${limit}
        )
        select (select count(*) from slice)::int as looked_at,
               ${lastCursor(sql`slice`, sql`id`)} as last,
               (select min(c.candidate)::text
                from slice m
                cross join lateral (select ${unpaidFrom} as candidate) c
                where c.candidate <= least(${lastPayableDay}, ${last}::date)) as day`);
      if (row?.day && (earliest === null || row.day < earliest)) earliest = row.day;
      return { lookedAt: Number(row?.looked_at ?? 0), last: row?.last ?? null };
    }),
  );
  return earliest;
}

/** The idempotency key of the `number`-th journal entry of business day `day` (1, 2, … with no gap). */
const entryKey = (day: string, number: number) => `payouts:${day}:${number}`;

/**
 * How many journal entries `day` already has. Their keys are numbered 1…N without a gap (each pass takes the
 * next numbers under the payout lock), so N is found by probing the unique key, from `known` (a number known
 * to exist, e.g. the last one this run wrote) doubling the step, then bisecting: one lookup when no other run
 * wrote in between, a few dozen at worst, whatever the day's size. Counting the day's rows instead would cost
 * every pass a scan of all the day's payouts so far.
 */
async function entriesOfDay(tx: Executor, day: string, known: number): Promise<number> {
  const exists = async (number: number) =>
    (await queryRows(tx, sql`select 1 from journal_entries where idempotency_key = ${entryKey(day, number)}`)).length > 0;
  let low = known;
  let step = 1;
  while (await exists(low + step)) {
    low += step;
    step *= 2;
  }
  let high = low + step;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (await exists(middle)) low = middle;
    else high = middle;
  }
  return low;
}

type PassResult = Slice & {
  paid: number;
  amountCents: number;
  /** The number of the day's last journal entry after the pass. */
  entries: number;
  /** Memberships looked at with a due business day before `day` still unpaid (left for the catch-up). */
  behind: number;
};

/**
 * One pass, one statement. It looks at the next `limit` memberships activated before `day`, in activation order
 * after `after` (walking an index keeps a pass's work proportional to its size, however many passes the day
 * takes, see walkAfter), finds for each
 * its first unpaid business day (after its last paid day, or after its activation), and pays `day` to those due
 * on `day` whose first unpaid day it is; those with an earlier one are counted as behind and left alone. It
 * gives a wallet to a member who has none yet (their first dividend, as memberAccount() would), claims the
 * (membership, day) rows, writes the member transactions, journal entries of at most WALLETS_PER_ENTRY wallets
 * each (numbered from `entriesBefore` + 1), one posting per wallet and one per entry on
 * platform:dividends_paid. Ids are drawn up front (newId) so every row can name the others; the foreign keys
 * and the ledger's trigger (each entry sums to zero, each account moves by its postings) run at the end of the
 * statement.
 *
 * The claim has no ON CONFLICT: a (membership, day) already paid (impossible under the lock, whatever the code
 * does) makes the primary key refuse the whole pass, so nothing is ever paid twice. Likewise a wallet that
 * memberAccount() creates for the same member at the same instant fails the pass on its unique code (payPass
 * then runs it again, and finds the wallet). Every row is derived from
 * one materialized set, never by joining two of them: the planner cannot estimate those sets (it sees one row)
 * and would join them by nested loops, quadratic in the pass size. Rows are written in the order of each
 * table's main index (claims by membership, transactions by member, postings by account), so a pass fills
 * neighbouring index pages.
 */
async function payPassStatement(
  tx: Executor,
  day: string,
  times: { now: string; due: string },
  after: string | null,
  limit: number,
  entriesBefore: number,
) {
  const [row] = await queryRows<{ looked_at: number; last: string | null; behind: number; paid: number; total: string; entries: number }>(tx, sql`
    with scanned as materialized (
      select s.membership_id, s.started_at, s.user_id, s.pack, s.amount_cents, s.due, s.last_day,
             ${businessDayFrom(sql`s.unpaid_from`)} as first_unpaid
      from (
        select m.id as membership_id, m.started_at, m.user_id, m.pack, m.daily_dividend_cents as amount_cents, ${dueOn(day)} as due,
               ${lastPayableDay} as last_day, ${unpaidFrom} as unpaid_from
        from memberships m
        -- Only memberships activated before the day can be due on it or behind: the walk ends there.
        where m.started_at < ${startOf(day)} and ${walkAfter(after)}
        order by m.started_at, m.id
        limit ${limit}
      ) s
    ),
    due as materialized (
      -- New ids are drawn once per row at the bottom: a window function re-evaluates a volatile argument.
      select b.membership_id, b.user_id, b.pack, b.amount_cents, b.transaction_id, b.new_wallet, b.account_id, b.batch,
             first_value(b.entry_seed) over (partition by b.batch) as entry_id
      from (
        select w.*, (row_number() over (order by w.account_id) - 1) / ${WALLETS_PER_ENTRY} as batch
        from (
          select r.membership_id, r.user_id, r.pack, r.amount_cents, r.transaction_id, r.entry_seed,
                 r.wallet_id is null as new_wallet,
                 coalesce(r.wallet_id, first_value(r.wallet_seed) over (partition by r.user_id)) as account_id
          from (
            select s.membership_id, s.user_id, s.pack, s.amount_cents,
                   (select a.id from ledger_accounts a where a.code = 'member:' || s.user_id::text || ':wallet') as wallet_id,
                   ${newId} as transaction_id, ${newId} as wallet_seed, ${newId} as entry_seed
            from scanned s
            where s.due and s.first_unpaid = ${day}::date
          ) r
        ) w
      ) b
    ),
    new_wallets as (
      insert into ledger_accounts (id, code, user_id, kind)
      select distinct on (d.user_id) d.account_id, 'member:' || d.user_id::text || ':wallet', d.user_id, 'member_wallet'
      from due d where d.new_wallet
      returning id
    ),
    claimed as (
      insert into dividend_payouts (membership_id, business_day, amount_cents, transaction_id, entry_id, created_at)
      select d.membership_id, ${day}::date, d.amount_cents, d.transaction_id, d.entry_id, ${times.now}::timestamptz
      from due d
      order by d.membership_id
      returning amount_cents
    ),
    entry_totals as materialized (
      select d.entry_id, d.batch, count(*) as payouts, sum(d.amount_cents) as total from due d group by d.entry_id, d.batch
    ),
    entries as (
      insert into journal_entries (id, kind, idempotency_key, description, metadata, created_at)
      select t.entry_id, 'payout_batch',
             'payouts:' || ${day}::text || ':' || (${entriesBefore}::int + row_number() over (order by t.batch))::text,
             'Daily dividends – ' || ${day}::text,
             jsonb_build_object('businessDay', ${day}::text, 'payouts', t.payouts, 'totalCents', t.total),
             ${times.now}::timestamptz
      from entry_totals t
      returning id
    ),
    member_transactions as (
      insert into transactions (id, user_id, type, amount_cents, status, description, plan, entry_id, created_at, updated_at)
      select d.transaction_id, d.user_id, 'payout', d.amount_cents, 'completed',
             'Daily dividend ' || d.pack || ' – ' || ${day}::text, d.pack, d.entry_id,
             ${times.due}::timestamptz, ${times.due}::timestamptz
      from due d
      order by d.user_id
      returning id
    ),
    posted as (
      insert into postings (id, entry_id, account_id, amount_cents, created_at)
      select ${newId}, l.entry_id, l.account_id, l.amount_cents, ${times.now}::timestamptz
      from (
        select d.entry_id, d.account_id, d.amount_cents from due d
        union all
        select t.entry_id, (select a.id from ledger_accounts a where a.code = 'platform:dividends_paid'), -t.total
        from entry_totals t
      ) l
      order by l.account_id
      returning id
    )
    select (select count(*) from scanned)::int as looked_at,
           ${lastCursor(sql`scanned`, sql`membership_id`)} as last,
           (select count(*) from scanned where first_unpaid < ${day}::date and first_unpaid <= last_day)::int as behind,
           (select count(*) from claimed)::int as paid,
           coalesce((select sum(amount_cents) from claimed), 0)::text as total,
           (select count(*) from entries)::int as entries,
           (select count(*) from new_wallets) + (select count(*) from member_transactions) + (select count(*) from posted) as written`);
  return {
    lookedAt: Number(row?.looked_at ?? 0),
    last: row?.last ?? null,
    paid: Number(row?.paid ?? 0),
    amountCents: Number(row?.total ?? 0),
    entries: entriesBefore + Number(row?.entries ?? 0),
    behind: Number(row?.behind ?? 0),
  };
}

/** Whether `error` (or what it wraps) is PostgreSQL refusing a second row for a unique constraint named `name`. */
function isUniqueViolation(error: unknown, name: string): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (code === '23505' && constraint === name) return true;
  }
  return false;
}

/** One pass: a database transaction under the payout lock (see payPassStatement). */
export async function payPass(db: Database, day: string, times: { now: string; due: string }, after: string | null, limit: number, knownEntries: number) {
  const attempt = () =>
    db.transaction(async (tx): Promise<PassResult> => {
      // The statement's estimated cost crosses PostgreSQL's JIT threshold, and compiling it costs more than it
      // saves on a pass of a few thousand rows (hundreds of milliseconds per pass when measured). It sorts the
      // pass's rows a few times (for its window functions, and to write each table in its index order): with
      // the default 4 MB of work memory a pass of tens of thousands spills every sort to disk. The settings
      // apply from the next statement, and last until the end of the transaction.
      await tx.execute(sql`select pg_advisory_xact_lock(${PAYOUT_LOCK_ID}), set_config('jit', 'off', true), set_config('work_mem', ${PASS_WORK_MEM}, true)`);
      const entriesBefore = await entriesOfDay(tx, day, knownEntries);
      return payPassStatement(tx, day, times, after, limit, entriesBefore);
    });
  try {
    return await attempt();
  } catch (error) {
    // A member's first wallet, created by another transaction while this pass created it too: it exists now.
    if (isUniqueViolation(error, 'ledger_accounts_code_unique')) return attempt();
    throw error;
  }
}

/** The latest business day a dividend was paid for ('YYYY-MM-DD'), or null before the first. */
export async function lastPaidBusinessDay(db: Executor): Promise<string | null> {
  const [row] = await queryRows<{ day: string | null }>(db, sql`select max(business_day)::text as day from dividend_payouts`);
  return row?.day ?? null;
}

/** One payout per member and business day, checked from the stored rows (for modules/reports' checkLedger). */
export async function checkPayoutDays(db: Executor): Promise<{ rule: string; detail: string }[]> {
  const problems: { rule: string; detail: string }[] = [];
  const paidTwice = await queryRows<{ user_id: string; business_day: string; payouts: number }>(db, sql`
    select m.user_id, p.business_day::text as business_day, count(*)::int as payouts
    from dividend_payouts p join memberships m on m.id = p.membership_id
    group by m.user_id, p.business_day having count(*) > 1`);
  for (const r of paidTwice) {
    problems.push({ rule: 'one payout per member and business day', detail: `member ${r.user_id} on ${r.business_day}: ${r.payouts} payouts` });
  }
  return problems;
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

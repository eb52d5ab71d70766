import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PACKS } from '@terrafund/contracts';
import { waitFor, type Instance } from '../processes/harness';
import { discard, faultsSkipReason, ledgerCheck, startFaultBackends, type FaultBackends } from './backends';

const MEMBERSHIPS = 20_000;
/** Activated this many days ago and never paid: the run has about a week of business days to pay (some 120,000 dividends). */
const DAYS_BACK = 8;
const DAY_MS = 86_400_000;

/** The business days (Monday to Friday, UTC) after the activation day up to today: each is due at 00:00 UTC. */
function dueBusinessDays(activatedAt: Date, now: Date): string[] {
  const days: string[] = [];
  const first = Date.UTC(activatedAt.getUTCFullYear(), activatedAt.getUTCMonth(), activatedAt.getUTCDate()) + DAY_MS;
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  for (let ms = first; ms <= today; ms += DAY_MS) {
    const weekday = new Date(ms).getUTCDay();
    if (weekday !== 0 && weekday !== 6) days.push(new Date(ms).toISOString().slice(0, 10));
  }
  return days;
}

/**
 * `kill -9` in the middle of a payout run of 20,000 memberships: the compiled server starts on a database where
 * 20,000 memberships are two weeks behind, and its payout job (run at start) is killed while paying. After the
 * restart the run finishes by itself; every due dividend is paid exactly once (no membership has a day twice or a
 * day missing, each wallet holds exactly its dividends) and `npm run ledger:check` passes.
 */
describe.skipIf(faultsSkipReason)('kill -9 during a payout run of 20,000 memberships', () => {
  let backends: FaultBackends;
  let instance: Instance | undefined;
  let activatedAt: Date;

  beforeAll(async () => {
    backends = await startFaultBackends('killpayouts');
    // A first start migrates and seeds the database; it is stopped before the fixture is written.
    const first = await backends.start('migrate');
    await discard(first, 'SIGTERM');

    // Set-based, as scripts/bench-payouts.ts does: one member and one active membership each, packs mixed, all
    // activated on one day DAYS_BACK days ago, none of them paid yet.
    activatedAt = new Date(Date.now() - DAYS_BACK * DAY_MS);
    activatedAt.setUTCHours(12, 0, 0, 0);
    await backends.sql(
      `insert into users (email, first_name, last_name, password_hash, email_verified_at, kyc_status, kyc_verified, created_at, updated_at)
       select 'payout.' || g || '@fault.terrafund.test', 'Member', 'No. ' || g, '!', $2::timestamptz, 'approved', true, $2::timestamptz, $2::timestamptz
       from generate_series(1, $1::int) g`,
      [MEMBERSHIPS, new Date(activatedAt.getTime() - DAY_MS)],
    );
    await backends.sql(
      `insert into memberships (user_id, pack, price_cents, daily_dividend_cents, started_at, ends_at, status, created_at)
       select u.id, p.pack[k], p.price[k], p.daily[k], s.at, s.at + interval '3 years', 'active', s.at
       from (select id, row_number() over (order by email) as n from users where email like 'payout.%') u
       cross join (select $1::text[] as pack, $2::bigint[] as price, $3::bigint[] as daily) p
       cross join lateral (select 1 + (u.n % array_length(p.pack, 1))::int as k) i(k)
       cross join lateral (select $4::timestamptz + (u.n::float8 / $5::int * 3600) * interval '1 second' as at) s
       order by u.n`,
      [PACKS.map((p) => p.id), PACKS.map((p) => Math.round(p.price * 100)), PACKS.map((p) => Math.round(p.dailyDividend * 100)), activatedAt, MEMBERSHIPS],
    );
    await backends.sql('vacuum analyze users, memberships');
  });
  afterAll(async () => {
    await discard(instance);
    await backends?.close();
  });
  afterEach((context) => {
    if (context.task.result?.state === 'fail') console.log(instance?.output().slice(-8000));
  });

  const paid = async () => (await backends.sql<{ n: number }>('select count(*)::int as n from dividend_payouts'))[0]!.n;

  it('finishes the run by itself after the restart, paying every due dividend exactly once; ledger:check passes', async () => {
    const days = dueBusinessDays(activatedAt, new Date());
    const expected = days.length * MEMBERSHIPS;
    expect(days.length).toBeGreaterThanOrEqual(4);

    // Started: its payout job begins at once. Killed without warning once it has paid part of the run.
    instance = await backends.start('payouts-a');
    const atKill = await waitFor('the payout run to have paid part of the dividends', async () => {
      const n = await paid();
      return n >= expected * 0.05 && n;
    }, 240_000, 50);
    await instance.stop('SIGKILL');
    const afterKill = await paid();
    console.log(`[faults] killed with ${atKill} of ${expected} dividends paid (${afterKill} once the killed transaction was gone)`);
    expect(afterKill, 'the run finished before the kill: nothing was interrupted').toBeLessThan(expected);
    await discard(instance);

    // Restarted: nothing asks it to pay; its job at start finishes the run.
    instance = await backends.start('payouts-b');
    await waitFor('the restarted server to finish the run', async () => (await paid()) === expected, 600_000, 500);
    // And it stops there: a while later nothing more was paid.
    await new Promise((r) => setTimeout(r, 2000));
    expect(await paid()).toBe(expected);

    // Exactly once: every membership has every due day once (the primary key forbids twice), no day outside them.
    const [perMembership] = await backends.sql<{ wrong: number; days: number; outside: number }>(
      `select (select count(*)::int from (select membership_id from dividend_payouts group by membership_id having count(*) <> $1) w) as wrong,
              (select count(distinct business_day)::int from dividend_payouts) as days,
              (select count(*)::int from dividend_payouts where not (business_day::text = any($2::text[]))) as outside`,
      [days.length, days],
    );
    expect(perMembership).toEqual({ wrong: 0, days: days.length, outside: 0 });
    // Each wallet holds exactly its dividends: one credit per paid day, at its pack's rate.
    const [wallets] = await backends.sql<{ wrong: number }>(
      `select count(*)::int as wrong from memberships m
       join ledger_accounts a on a.user_id = m.user_id and a.kind = 'member_wallet'
       where a.balance_cents <> m.daily_dividend_cents * $1`,
      [days.length],
    );
    expect(wallets!.wrong).toBe(0);

    const check = await ledgerCheck(backends.env.DATABASE_URL!);
    expect(check.code, check.output).toBe(0);
  });
});

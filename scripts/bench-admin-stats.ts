/**
 * `npm run bench:admin-stats`: the admin dashboard figures (GET /api/admin/dashboard/stats) on 2.7 million
 * transactions against 10 thousand (issue 17, docs/performance.md).
 *
 * Fills two PostgreSQL databases next to DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test),
 * `tf_bench_stats_small` and `tf_bench_stats_large`, migrated with the app's own `migrate()`, each with the
 * same 10,000 members and a year of transactions of the same mix (payouts, deposits, withdrawals; pending,
 * completed and failed), 10,000 rows in one and 2,700,000 in the other, set-based. It builds the real Fastify
 * app on each (clock fixed at the end of that year), signs an admin in, and times `app.inject` of the stats,
 * interleaved (one on each, `--runs` times, after warm-ups) so both see the same machine. It checks that
 * both answers equal the figures computed by scanning every transaction (the statement the service ran before
 * migration 0010), times that scan too, and prints the plan of the statement the app sent. Exits non-zero when
 * the large database takes more than 1.5 times the small one, or a figure differs.
 *
 * Options: --reuse keeps already filled databases; --runs=N per median (default 40); --large=N rows (2,700,000).
 */
import os from 'node:os';
import { fixedClock } from '../apps/api/src/lib/clock';
import { hashPassword } from '../apps/api/src/lib/password';
import {
  databaseUrl as urlOf,
  explainSent,
  recordStatements,
  reuseOrCreate,
  signedInAdminApp,
  timedGet,
  withClient,
  type SignedInApp,
} from './bench-db';
import { median } from './bench-http';

const MEMBERS = 10_000;
const ADMIN = { email: 'bench.admin@example.com', password: 'Quiet-Lantern-47!' };
/** The clock of both apps: the end of the filled year, mid-day, so the 30-day windows start and end mid-day. */
const NOW = new Date('2026-11-25T13:37:00.000Z');
const DAY_MS = 86_400_000;

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => Number(args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const reuse = args.includes('--reuse');
const runs = option('runs', 40);
const sizes = { small: 10_000, large: option('large', 2_700_000) };

const databases = { small: 'tf_bench_stats_small', large: 'tf_bench_stats_large' } as const;
type Size = keyof typeof databases;

/** Every statement the app sends, so the stats statement itself can be EXPLAINed. */
const sent = recordStatements(200, 50);

const log = (line = '') => console.log(line);

async function prepare(size: Size) {
  const database = databases[size];
  const rows = sizes[size];
  const url = urlOf(database);
  if (await reuseOrCreate(database, rows, reuse)) return;

  const started = Date.now();
  await withClient(url, async (c) => {
    await c.query(
      `insert into users (email, first_name, last_name, password_hash, role, email_verified_at, created_at, updated_at)
       values ($1, 'Bench', 'Admin', $2, 'admin', $3, $3, $3)`,
      [ADMIN.email, await hashPassword(ADMIN.password), NOW.toISOString()],
    );
    // Members never sign in: their password hash is a placeholder no password verifies against.
    await c.query(
      `insert into users (email, first_name, last_name, password_hash, email_verified_at, created_at, updated_at)
       select 'member.' || g || '@bench.example.com', 'Member', 'No ' || g, '!', $2::timestamptz, $2::timestamptz - g * interval '50 minutes', $2::timestamptz
       from generate_series(1, $1::int) g`,
      [MEMBERS, NOW.toISOString()],
    );
    // One statement: a year of history before NOW, evenly spread (timestamps with microseconds); per 50 rows
    // two deposits, one withdrawal and 47 dividends, some pending or failed.
    await c.query(
      `insert into transactions (user_id, type, amount_cents, status, description, wallet_address, plan, created_at, updated_at)
       select m.ids[1 + g % array_length(m.ids, 1)],
              k.type,
              case k.type when 'deposit' then 70000 + (g % 4) * 50000 when 'withdrawal' then 2500 + (g % 100) * 100 else 300 + (g % 4) * 500 end,
              case when k.type <> 'payout' and g % 7 = 0 then 'pending' when g % 97 = 0 then 'failed' else 'completed' end,
              'Bench ' || k.type || ' ' || g,
              case when k.type = 'withdrawal' then 'bc1qbench' || g end,
              case when k.type = 'deposit' then 'startium' end,
              ts.at, ts.at
       from generate_series(1, $1::int) g
       cross join (select array_agg(id order by email) as ids from users where role = 'user') m
       cross join lateral (select case when g % 50 in (0, 25) then 'deposit' when g % 50 = 1 then 'withdrawal' else 'payout' end as type) k
       cross join lateral (select $2::timestamptz - (g::float8 / $1 * 365 * 86400) * interval '1 second' - (g % 997) * interval '1 microsecond' as at) ts`,
      [rows, NOW.toISOString()],
    );
    await c.query('vacuum analyze');
  });
  log(`filled ${database}: ${MEMBERS.toLocaleString('en-US')} members, ${rows.toLocaleString('en-US')} transactions in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** The figures by scanning every transaction: the statement dashboardStats ran before migration 0010. */
async function scanFigures(url: string) {
  const now = NOW.getTime();
  const monthStart = Date.UTC(NOW.getUTCFullYear(), NOW.getUTCMonth(), 1);
  const nextMonth = Date.UTC(NOW.getUTCFullYear(), NOW.getUTCMonth() + 1, 1);
  const tomorrow = Date.UTC(NOW.getUTCFullYear(), NOW.getUTCMonth(), NOW.getUTCDate() + 1);
  const t = (ms: number) => `'${new Date(ms).toISOString()}'::timestamptz`;
  const recent = `created_at > ${t(now - 30 * DAY_MS)} and created_at <= ${t(now)}`;
  const before = `created_at > ${t(now - 60 * DAY_MS)} and created_at <= ${t(now - 30 * DAY_MS)}`;
  const invested = `type in ('deposit', 'investment')`;
  const statement = `
    with money as (
      select coalesce(sum(amount_cents) filter (where ${invested}), 0) as invested,
             coalesce(sum(amount_cents) filter (where ${invested} and ${recent}), 0) as invested_recent,
             coalesce(sum(amount_cents) filter (where ${invested} and ${before}), 0) as invested_before,
             coalesce(sum(amount_cents) filter (where created_at >= ${t(monthStart)} and created_at < ${t(nextMonth)}), 0) as monthly
      from transactions where status = 'completed'
    ),
    payout_day as (
      select date_trunc('day', max(created_at), 'UTC') as start from transactions
      where type = 'payout' and status = 'completed' and created_at < ${t(tomorrow)}
    ),
    payouts as (
      select coalesce(sum(t.amount_cents), 0) as paid from transactions t, payout_day d
      where t.type = 'payout' and t.status = 'completed' and t.created_at >= d.start and t.created_at < ${t(tomorrow)}
    )
    select money.invested::text, money.monthly::text, payouts.paid::text,
           (case when money.invested_before = 0 then case when money.invested_recent = 0 then 0 else 100 end
                 else round((money.invested_recent - money.invested_before)::numeric * 100 / money.invested_before, 1) end)::text as growth
    from money, payouts`;
  return withClient(url, async (c) => {
    const times: number[] = [];
    let row: Record<string, string> = {};
    for (let i = 0; i < 3; i += 1) {
      const started = process.hrtime.bigint();
      row = (await c.query<Record<string, string>>(statement)).rows[0]!;
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    return {
      ms: median(times),
      figures: {
        totalInvestments: Number(row.invested) / 100,
        totalDailyPayouts: Number(row.paid) / 100,
        monthlyVolume: Number(row.monthly) / 100,
        investmentGrowth: Number(row.growth),
      },
    };
  });
}

async function main() {
  await prepare('small');
  await prepare('large');

  const apps = {} as Record<Size, SignedInApp>;
  for (const size of ['small', 'large'] as const) {
    apps[size] = await signedInAdminApp({ database: databases[size], admin: ADMIN, dataDirName: 'tf-bench-stats', clock: fixedClock(NOW) });
  }

  const stats = async (size: Size) => {
    const { ms, response } = await timedGet(apps[size], '/api/admin/dashboard/stats', size);
    return { ms, body: response.json<Record<string, number>>() };
  };

  for (let i = 0; i < 5; i += 1) {
    await stats('small');
    await stats('large');
  }
  const times: Record<Size, number[]> = { small: [], large: [] };
  for (let i = 0; i < runs; i += 1) {
    // Alternate which goes first, so neither always follows the other.
    for (const size of i % 2 ? (['large', 'small'] as const) : (['small', 'large'] as const)) times[size].push((await stats(size)).ms);
  }

  // The answers against the figures of a full scan.
  let same = true;
  const scans = {} as Record<Size, number>;
  for (const size of ['small', 'large'] as const) {
    const { body } = await stats(size);
    const scan = await scanFigures(urlOf(databases[size]));
    scans[size] = scan.ms;
    for (const [name, value] of Object.entries(scan.figures)) {
      if (body[name] !== value) {
        same = false;
        console.error(`${size}: ${name} is ${body[name]}, a full scan says ${value}`);
      }
    }
    log(`${size}: ${JSON.stringify(body)}`);
  }

  // EXPLAIN the statement the app sent for the figures (the one reading transaction_totals).
  sent.length = 0;
  await stats('large');
  const statement = [...sent].reverse().find((q) => /from transaction_totals/.test(q.text) && /members/.test(q.text));
  const plan = await explainSent(urlOf(databases.large), statement!, 'analyze, costs off');
  const buckets = await withClient(urlOf(databases.large), async (c) => Number((await c.query('select count(*) from transaction_totals')).rows[0].count));

  const small = median(times.small);
  const large = median(times.large);
  const ratio = large / small;
  log();
  log(`machine: ${os.cpus().length} cores (${os.cpus()[0]?.model.trim() ?? 'unknown'}), node ${process.version}, ${new Date().toISOString()}`);
  log(`load average during the run: ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')} (1 / 5 / 15 min)`);
  log();
  log(`| transactions | GET /api/admin/dashboard/stats, median of ${runs} | the former full scan (in the database alone, median of 3) |`);
  log('|---|---|---|');
  log(`| ${sizes.small.toLocaleString('en-US')} | ${small.toFixed(2)} ms | ${scans.small.toFixed(1)} ms |`);
  log(`| ${sizes.large.toLocaleString('en-US')} | ${large.toFixed(2)} ms | ${scans.large.toFixed(1)} ms |`);
  log();
  log(`large / small: ${ratio.toFixed(2)}x (requirement: at most 1.5x); transaction_totals rows on the large one: ${buckets.toLocaleString('en-US')}`);
  log(`same figures as a full scan: ${same ? 'yes' : 'NO'}`);
  log();
  log('EXPLAIN ANALYZE of the statement the app sent (large):');
  for (const line of plan) log(`  ${line}`);
  const seqScanOnTransactions = plan.some((line) => /Seq Scan on transactions/.test(line));
  log(`sequential scan of transactions: ${seqScanOnTransactions ? 'YES' : 'no'}`);

  await apps.small.close();
  await apps.large.close();
  if (ratio > 1.5 || !same || seqScanOnTransactions) {
    console.error('FAILED: the figures on the large database take more than 1.5 times the small one, differ from a full scan, or scan transactions');
    process.exitCode = 1;
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

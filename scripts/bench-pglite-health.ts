/**
 * `npm run bench:pglite-health`: does the API keep answering while the payout job runs on embedded PGlite?
 * (docs/performance.md, "API responsiveness during payouts (PGlite)").
 *
 * PGlite runs PostgreSQL inside this Node process: a statement occupies the event loop, and a transaction
 * holds the database until it ends, so a request waits for whatever the job is doing. This starts the real
 * server (buildApp on PGlite in a temporary DATA_DIR, listening on a free port), seeds 200,000 members with an
 * active membership each (activated on Wednesday 2026-11-18), then runs the payout job for Thursday 19 (every
 * member's first dividend, the heaviest day: each wallet is created) in the same process, as the scheduler
 * does, while a client in a worker thread (its own event loop) sends GET /api/health every 20 ms without
 * waiting for answers, and records each request's latency from the moment it was due to be sent. Prints
 * p50 / p95 / p99 / max before and during the job; exits non-zero when p99 during the job is 250 ms or more,
 * or a request failed. The temporary directory is removed at the end.
 *
 * Options: --memberships=N (default 200000), --interval=MS (default 20).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import pino from 'pino';
import { PACKS } from '@terrafund/contracts';
import { buildApp } from '../apps/api/src/app';
import { loadConfig } from '../apps/api/src/config';
import { connectPglite } from '../apps/api/src/db/client';
import { runPayouts } from '../apps/api/src/modules/payouts';

const P99_BOUND_MS = 250;
const ACTIVATED = '2026-11-18'; // a Wednesday
const PAID_DAY = '2026-11-19';
const PACK_WEIGHTS: Record<string, number> = { startium: 4, ultimium: 3, gold: 2, platinum: 1 };

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const value = args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const parsed = value === undefined ? fallback : Number(value.replaceAll('_', ''));
  if (!Number.isSafeInteger(parsed) || parsed <= 0) throw new Error(`--${name} must be a positive whole number`);
  return parsed;
};
const memberships = option('memberships', 200_000);
const intervalMs = option('interval', 20);

const log = (line = '') => console.log(line);
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' / ');
/** Wall-clock milliseconds comparable across threads (each thread's performance.now() has its own origin). */
const now = () => performance.timeOrigin + performance.now();

/**
 * The client, on its own thread so that it keeps its schedule while the server's event loop is busy: a
 * request every `interval` ms whatever the previous ones are doing (open loop), so a stalled server shows as
 * the latency of every request that piled up behind it, not as requests never sent.
 */
const CLIENT = `
const { parentPort, workerData } = require('node:worker_threads');
const now = () => performance.timeOrigin + performance.now();
const samples = [];
let failures = 0;
let next = now();
let stopping = false;
const inFlight = new Set();
function tick() {
  if (stopping) return;
  const due = next;
  const request = fetch(workerData.url)
    .then(async (response) => {
      await response.arrayBuffer();
      if (response.status !== 200) failures += 1;
      samples.push([due, now() - due]);
    })
    .catch(() => { failures += 1; })
    .finally(() => inFlight.delete(request));
  inFlight.add(request);
  next += workerData.interval;
  setTimeout(tick, Math.max(0, next - now()));
}
parentPort.on('message', async () => {
  stopping = true;
  await Promise.all(inFlight);
  parentPort.postMessage({ samples, failures });
});
tick();
`;

type Sample = [sentAt: number, latencyMs: number];

function percentiles(latencies: number[]) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
  return { count: sorted.length, p50: at(50), p95: at(95), p99: at(99), max: sorted[sorted.length - 1] ?? NaN };
}

async function seed(database: ReturnType<typeof connectPglite>) {
  const client = (database as unknown as { pglite: { query(text: string, values?: unknown[]): Promise<unknown> } }).pglite;
  const packs = PACKS.flatMap((p) => Array.from({ length: PACK_WEIGHTS[p.id] ?? 1 }, () => p));
  await client.query(
    `insert into users (email, first_name, last_name, password_hash, email_verified_at, kyc_status, kyc_verified, created_at, updated_at)
     select 'member.' || g || '@bench.example.com', 'Member', 'No. ' || g, '!', t.at, 'approved', true, t.at, t.at
     from generate_series(1, $1::int) g
     cross join lateral (select timestamptz '2026-10-01 00:00:00+00' + (g % 47) * interval '1 day' as at) t`,
    [memberships],
  );
  await client.query(
    `insert into memberships (user_id, pack, price_cents, daily_dividend_cents, started_at, ends_at, status, created_at)
     select u.id, p.pack[k], p.price[k], p.daily[k], s.at, s.at + interval '3 years', 'active', s.at
     from (select id, row_number() over (order by id) as n from users) u
     cross join (select $1::text[] as pack, $2::bigint[] as price, $3::bigint[] as daily) p
     cross join lateral (select 1 + (u.n % array_length(p.pack, 1))::int as k) i(k)
     cross join lateral (select $4::date::timestamp at time zone 'UTC' + (u.n % 86400) * interval '1 second' as at) s`,
    [packs.map((p) => p.id), packs.map((p) => Math.round(p.price * 100)), packs.map((p) => Math.round(p.dailyDividend * 100)), ACTIVATED],
  );
  // Only the tables just filled (see bench-payouts.ts: an empty table analyzed as empty gets seq-scan plans).
  await client.query('vacuum analyze users, memberships');
}

async function main() {
  log(`machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), node ${process.version}, ${new Date().toISOString()}`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tf-bench-pglite-'));
  const database = connectPglite(path.join(dataDir, 'pglite'));
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  let worker: Worker | undefined;
  try {
    await database.migrate();
    const seedStarted = now();
    await seed(database);
    log(`seeded ${memberships.toLocaleString('en-US')} members and memberships on PGlite in ${((now() - seedStarted) / 1000).toFixed(1)} s`);

    const config = loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir, APP_SECRET: 'bench-secret-bench-secret-bench-secret-0123', LOG_LEVEL: 'silent' });
    app = await buildApp({ config: { ...config, runJobs: false, webDistDir: undefined }, db: database.db, logger: pino({ level: 'silent' }) });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });

    worker = new Worker(CLIENT, { eval: true, workerData: { url: `${address}/api/health`, interval: intervalMs } });
    const stopClient = () =>
      new Promise<{ samples: Sample[]; failures: number }>((resolve) => {
        worker!.once('message', resolve);
        worker!.postMessage('stop');
      });

    await new Promise((resolve) => setTimeout(resolve, 3_000)); // the idle baseline
    const jobStarted = now();
    const result = await runPayouts(database.db, { clock: { now: () => new Date(`${PAID_DAY}T00:00:00Z`) } });
    const jobEnded = now();
    const loadDuring = load();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const { samples, failures } = await stopClient();

    const idle = percentiles(samples.filter(([sent]) => sent < jobStarted).map(([, ms]) => ms));
    const during = percentiles(samples.filter(([sent]) => sent >= jobStarted && sent <= jobEnded).map(([, ms]) => ms));
    log(`job: ${result.paid.toLocaleString('en-US')} dividends paid for ${result.days.join(', ')} in ${((jobEnded - jobStarted) / 1000).toFixed(1)} s (load ${loadDuring})`);
    log(`client: GET /api/health every ${intervalMs} ms from a worker thread, ${failures} failed`);
    log();
    log('| GET /api/health | requests | p50 | p95 | p99 | max |');
    log('|---|---|---|---|---|---|');
    for (const [name, p] of [['server idle', idle], ['while the job runs', during]] as const) {
      log(`| ${name} | ${p.count} | ${p.p50.toFixed(1)} ms | ${p.p95.toFixed(1)} ms | ${p.p99.toFixed(1)} ms | ${p.max.toFixed(1)} ms |`);
    }
    if (result.paid !== memberships || failures > 0 || !(during.p99 < P99_BOUND_MS)) {
      console.error(`\nFAILED: p99 during the job must be under ${P99_BOUND_MS} ms, every request answered, every membership paid`);
      process.exitCode = 1;
    }
  } finally {
    await worker?.terminate();
    await app?.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

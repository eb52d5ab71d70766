/**
 * `npm run bench:admin-transactions`: the admin transactions list at depth (docs/performance.md).
 *
 * Fills a fresh PostgreSQL database `tf_bench_admin` (next to DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/test) with 10,000 members and 1,000,000 transactions, set-based, then
 * measures through the real Fastify app (buildApp + inject, an admin session) the median time of:
 *   - page 1;
 *   - the last page (row ~1,000,000) reached by its cursor;
 *   - the last pages reached by sequential page numbers, each a seek from the bookmark the page before left;
 * and, once, a cold jump to the last page by number on a server that has seen no page (linear, documented).
 * It prints the plan of the exact deep statement the app sent (EXPLAIN ANALYZE): an Index Scan, no OFFSET.
 * Exits non-zero when the deep page costs more than 1.5 times page 1.
 *
 * Options: --reuse keeps an already filled tf_bench_admin; --runs=N sets the requests per median (default 50).
 */
import os from 'node:os';
import { hashPassword } from '../apps/api/src/lib/password';
import { encodeCursor } from '../apps/api/src/lib/cursor';
import { databaseUrl, explainSent, recordStatements, reuseOrCreate, signedInAdminApp, timedGet, withClient } from './bench-db';
import { median } from './bench-http';

const TRANSACTIONS = 1_000_000;
const MEMBERS = 10_000;
const PAGE_SIZE = 20;
const LAST_PAGE = TRANSACTIONS / PAGE_SIZE;
const DATABASE = 'tf_bench_admin';
const ADMIN = { email: 'bench.admin@example.com', password: 'bench-admin-password' };

const args = process.argv.slice(2);
const reuse = args.includes('--reuse');
const runs = Number(args.find((a) => a.startsWith('--runs='))?.slice('--runs='.length) ?? 50);

const benchUrl = databaseUrl(DATABASE);

/** Every statement the app sends, so the deep page's own SQL can be EXPLAINed, not a hand-written copy. */
const sent = recordStatements(1_000, 100);

const log = (line = '') => console.log(line);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function prepareDatabase() {
  if (await reuseOrCreate(DATABASE, TRANSACTIONS, reuse)) return;

  const started = Date.now();
  await withClient(benchUrl, async (c) => {
    const adminHash = await hashPassword(ADMIN.password);
    await c.query(
      `insert into users (email, first_name, last_name, password_hash, role, email_verified_at, created_at, updated_at)
       values ($1, 'Bench', 'Admin', $2, 'admin', now(), now(), now())`,
      [ADMIN.email, adminHash],
    );
    // Members never sign in: their password hash is a placeholder no password verifies against.
    await c.query(
      `insert into users (email, first_name, last_name, password_hash, email_verified_at, created_at, updated_at)
       select 'member.' || g || '@bench.example.com',
              (array['Ada','Grace','Alan','Edsger','Barbara','Donald','Frances','Ken'])[1 + g % 8],
              'Member' || g, '!', now(), now() - g * interval '1 hour', now()
       from generate_series(1, $1::int) g`,
      [MEMBERS],
    );
    // One statement, 1,000,000 rows: two rows share each timestamp (the id breaks the tie) and the timestamps
    // carry microseconds, as real ones do; 30 s apart, so a year of history.
    await c.query(
      `insert into transactions (user_id, type, amount_cents, status, description, wallet_address, plan, created_at, updated_at)
       select m.ids[1 + g % array_length(m.ids, 1)],
              k.type,
              case k.type when 'deposit' then 70000 when 'withdrawal' then 2500 + (g % 100) * 100 else 300 end,
              case when k.type = 'withdrawal' and g % 7 = 0 then 'pending' when g % 97 = 0 then 'failed' else 'completed' end,
              'Bench ' || k.type || ' ' || g,
              case when k.type = 'withdrawal' then 'bc1qbench' || g end,
              case when k.type <> 'withdrawal' then 'startium' end,
              ts.at, ts.at
       from generate_series(1, $1::int) g
       cross join (select array_agg(id order by email) as ids from users where role = 'user') m
       cross join lateral (select case when g % 10 = 0 then 'deposit' when g % 10 < 3 then 'withdrawal' else 'payout' end as type) k
       cross join lateral (select timestamptz '2026-03-01 00:00:00+00' - (g / 2) * interval '30 seconds' - (g % 997) * interval '1 microsecond' as at) ts`,
      [TRANSACTIONS],
    );
    await c.query('vacuum analyze users');
    await c.query('vacuum analyze transactions');
  });
  log(`filled ${DATABASE}: ${MEMBERS.toLocaleString('en-US')} members, ${TRANSACTIONS.toLocaleString('en-US')} transactions in ${seconds(Date.now() - started)}`);
}

async function main() {
  await prepareDatabase();
  const admin = await signedInAdminApp({ database: DATABASE, admin: ADMIN, dataDirName: 'tf-bench' });

  const call = async (url: string) => {
    const { ms, response } = await timedGet(admin, url);
    const body: unknown = response.json();
    const list = Array.isArray(body) ? (body as { _id: string }[]) : [];
    return { ms, rows: list.length, ids: list.map((t) => t._id) };
  };
  // The key of the last row of page LAST_PAGE - 1 (setup only, read straight from the database), as its cursor.
  const [before] = (
    await withClient(benchUrl, (c) =>
      c.query<{ created_at: string; id: string }>(
        `select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at, id::text
         from transactions order by created_at desc nulls last, id desc nulls last offset $1 limit 1`,
        [(LAST_PAGE - 1) * PAGE_SIZE - 1],
      ),
    )
  ).rows;
  const deepCursor = encodeCursor({ createdAt: before!.created_at, id: before!.id });

  // A cold jump: a server with no bookmark walks from the top (correct, linear in the gap). It leaves bookmarks.
  const coldStarted = process.hrtime.bigint();
  const cold = await call(`/api/admin/transactions?page=${LAST_PAGE}`);
  const coldMs = Number(process.hrtime.bigint() - coldStarted) / 1e6;

  // Sequential page numbers at depth: each page a seek from the bookmark the page before left. The run ends on
  // the last page and starts `runs` pages before it (the cold jump left a bookmark nearby).
  const firstUrl = '/api/admin/transactions?page=1';
  const deepUrl = `/api/admin/transactions?page=${LAST_PAGE}&cursor=${deepCursor}`;
  const startPage = LAST_PAGE - runs;
  await call(`/api/admin/transactions?page=${startPage}`);
  for (let i = 0; i < 5; i += 1) {
    await call(firstUrl); // warm-up: connections, buffers, the handler's first runs
    await call(deepUrl);
  }
  // Interleaved, so that the three see the same machine: other work on a shared box comes and goes.
  const times = { first: [] as number[], cursor: [] as number[], number: [] as number[], search: [] as number[], searchDeep: [] as number[] };
  const rowsOf = { first: 0, cursor: 0, number: 0, search: 0, searchDeep: 0 };
  // A search matching one member in eight ("Ada"), on top and near the end of the list.
  const searchUrl = '/api/admin/transactions?page=1&search=ada';
  const searchDeepUrl = `/api/admin/transactions?search=ada&cursor=${deepCursor}`;
  let sequentialLast: Awaited<ReturnType<typeof call>> | undefined;
  for (let i = 1; i <= runs; i += 1) {
    const a = await call(firstUrl);
    const b = await call(deepUrl);
    sequentialLast = await call(`/api/admin/transactions?page=${startPage + i}`);
    const c = await call(searchUrl);
    const d = await call(searchDeepUrl);
    times.search.push(c.ms);
    times.searchDeep.push(d.ms);
    rowsOf.search = c.rows;
    rowsOf.searchDeep = d.rows;
    times.first.push(a.ms);
    times.cursor.push(b.ms);
    times.number.push(sequentialLast.ms);
    rowsOf.first = a.rows;
    rowsOf.cursor = b.rows;
    rowsOf.number = sequentialLast.rows;
  }
  const first = { median: median(times.first), rows: rowsOf.first };
  const byCursor = { median: median(times.cursor), rows: rowsOf.cursor };
  const byNumber = { median: median(times.number), rows: rowsOf.number };

  // The same page whichever way it was reached.
  const viaCursor = await call(`/api/admin/transactions?page=${LAST_PAGE}&cursor=${deepCursor}`);
  const same = JSON.stringify(viaCursor.ids) === JSON.stringify(sequentialLast!.ids) && JSON.stringify(cold.ids) === JSON.stringify(viaCursor.ids);

  // EXPLAIN the statement the app sent for the deep page (the last transactions query it ran).
  sent.length = 0;
  await call(`/api/admin/transactions?page=${LAST_PAGE}&cursor=${deepCursor}`);
  const deepStatement = [...sent].reverse().find((q) => /from "transactions"/.test(q.text) && /order by/i.test(q.text));
  const plan = await explainSent(benchUrl, deepStatement!, 'analyze, buffers, costs off');
  // What the keyset avoids: the same page by OFFSET, timed in the database alone.
  const offsetPlan = await withClient(benchUrl, async (c) =>
    (await c.query<{ 'QUERY PLAN': string }>(
      `explain (analyze, costs off, timing off, summary on)
       select t.*, u.first_name, u.last_name, u.email from transactions t join users u on u.id = t.user_id
       order by t.created_at desc nulls last, t.id desc nulls last offset ${(LAST_PAGE - 1) * PAGE_SIZE} limit 20`,
    )).rows.map((r) => r['QUERY PLAN']),
  );

  // The other admin calls on the same table, for the record (full-table aggregates, not paged).
  const others: [string, number][] = [];
  for (const url of ['/api/admin/dashboard/stats', '/api/admin/dashboard/transactions', '/api/transactions/stats', '/api/users/stats']) {
    const times: number[] = [];
    for (let i = 0; i < 7; i += 1) times.push((await call(url)).ms);
    others.push([url, median(times.slice(2))]);
  }

  const ratioCursor = byCursor.median / first.median;
  const ratioNumber = byNumber.median / first.median;
  log();
  log(`machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), node ${process.version}, ${new Date().toISOString()}`);
  log(`load average during the run: ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')} (1 / 5 / 15 min)`);
  log(`requests per median: ${runs}`);
  log();
  log('| request | rows | median |');
  log('|---|---|---|');
  log(`| page 1 | ${first.rows} | ${first.median.toFixed(2)} ms |`);
  log(`| page ${LAST_PAGE.toLocaleString('en-US')} by cursor (rows 999,981–1,000,000) | ${byCursor.rows} | ${byCursor.median.toFixed(2)} ms |`);
  log(`| pages ${(startPage + 1).toLocaleString('en-US')}–${LAST_PAGE.toLocaleString('en-US')} by sequential page number (bookmark seek) | ${byNumber.rows} | ${byNumber.median.toFixed(2)} ms |`);
  log(`| search "ada", page 1 | ${rowsOf.search} | ${median(times.search).toFixed(2)} ms |`);
  log(`| search "ada", after the same deep cursor | ${rowsOf.searchDeep} | ${median(times.searchDeep).toFixed(2)} ms |`);
  log(`| page ${LAST_PAGE.toLocaleString('en-US')} by a cold jump (no bookmark: walks 1,000,000 keys, once) | ${cold.rows} | ${coldMs.toFixed(0)} ms |`);
  log();
  log(`deep / first: by cursor ${ratioCursor.toFixed(2)}×, by page number ${ratioNumber.toFixed(2)}× (requirement: at most 1.5×)`);
  log(`same rows by cursor, by page number and by cold jump: ${same ? 'yes' : 'NO'}`);
  log();
  log('| other admin call | median of 5 |');
  log('|---|---|');
  for (const [url, ms] of others) log(`| ${url} | ${ms.toFixed(1)} ms |`);
  log();
  log('EXPLAIN ANALYZE of the deep page as the app sent it:');
  log(deepStatement!.text.replace(/\s+/g, ' '));
  log(`-- parameters: ${JSON.stringify(deepStatement!.values)}`);
  for (const line of plan) log(`  ${line}`);
  log();
  log('For comparison, the same page by OFFSET 999,980:');
  for (const line of offsetPlan) log(`  ${line}`);

  await admin.close();
  const planText = plan.join('\n');
  const ok = ratioCursor <= 1.5 && ratioNumber <= 1.5 && same && /Index Scan/.test(planText) && !/offset/i.test(deepStatement!.text);
  if (!ok) {
    console.error('FAILED: the deep page is not within 1.5× of page 1, differs between paths, or is not an index seek');
    process.exitCode = 1;
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

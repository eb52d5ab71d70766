/**
 * `npm run bench:transactions`: a member's `GET /api/transactions` on PostgreSQL through the whole product
 * against a bare `node:http` handler sending the same queries with raw `pg` (issue 17, docs/performance.md).
 *
 * Fills `tf_bench_tx` (next to DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test), migrated with
 * the app's own `migrate()`: one member with `--rows` transactions (120) among `--others` rows (200,000) of
 * 2,000 other members. Starts the product as `npm start` runs it (`apps/api/dist/server.js`, compiled first, on
 * that database, LOG_LEVEL=info, its log to a file) and signs the member in. The bare server (this file, run with
 * --bare-server, in a process of its own) does what the route does with plain `pg`: looks the session up
 * (the same join and conditions), checks the token's HMAC, reads the member's newest transactions (the same
 * statement and as many rows as the route answered, one more when it sent X-Next-Cursor, as a pager asks for),
 * reads the withdrawal rows of the page's withdrawals as the route does, maps them to the same JSON; the benchmark checks both bodies are the same bytes. Then, alternately:
 *   - as fast as answered (autocannon, `--connections`), `--rounds` times: requests per second, ratio;
 *   - at a fixed 200 requests per second: p99 latency, ratio.
 * Prints each measurement and the medians; exits 0 (the figures are the result, the bounds are printed).
 *
 * Options: --rows=N, --others=N, --connections=N (32), --duration=S (10), --rounds=N (3), --rate=N (200), --reuse,
 * --no-build.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import pg from 'pg';
import { createSecrets } from '../apps/api/src/lib/crypto';
import { hashPassword } from '../apps/api/src/lib/password';
import { databaseExists, databaseUrl, freshDatabase } from './bench-db';
import { freePort, load, machine, median, option, productSetup, buildApi, spawnProduct, stopServers, waitFor, type Run } from './bench-http';

const root = path.resolve(import.meta.dirname, '..');
const DATABASE = 'tf_bench_tx';
const MEMBER = { email: 'bench.member@example.com', password: 'Tf-correct-horse-9' };
const APP_SECRET = 'bench-transactions-secret-0123456789-abcdefghijkl';
const benchUrl = databaseUrl(DATABASE);

/**
 * The session lookup of session.service.ts `resolveSession`, as one statement: every column of the session and
 * its user, as the route reads them (it hands the user row to the service).
 */
const SESSION_SQL = `select s.*, u.*
  from sessions s inner join users u on u.id = s.user_id
  where s.id = $1 and s.revoked_at is null and s.expires_at > $2 and u.deleted_at is null
  limit 1`;
/** The page of transactions.service.ts `listOwnTransactions`. */
const PAGE_SQL = `select id, user_id, type, amount_cents, status, description, wallet_address, tx_hash, plan, created_at, updated_at,
    to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as key
  from transactions where user_id = $1 order by created_at desc, id desc limit $2`;
/** The withdrawal rows of the page's withdrawals, withdrawals.store.ts `withdrawalsOf`. */
const WITHDRAWALS_SQL = `select * from withdrawals where transaction_id = any($1::uuid[])`;
const TOKEN_PATTERN = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([A-Za-z0-9_-]{43})$/;

function bareServer(port: number, limit: number) {
  const pool = new pg.Pool({ connectionString: benchUrl, max: 10 });
  // bigint (amount_cents) arrives as a string, as it does for the app's driver.
  const secrets = createSecrets(APP_SECRET);
  http
    .createServer(async (request, response) => {
      try {
        const match = TOKEN_PATTERN.exec((request.headers.authorization ?? '').slice('Bearer '.length).trim());
        const session = match ? (await pool.query({ name: 'session', text: SESSION_SQL, values: [match[1], new Date()] })).rows[0] : undefined;
        if (!match || !session || !secrets.matches(match[2]!, session.token_hash)) {
          response.writeHead(401, { 'content-type': 'application/json; charset=utf-8' }).end('{"message":"Session expired"}');
          return;
        }
        const { rows } = await pool.query({ name: 'page', text: PAGE_SQL, values: [session.user_id, limit] });
        // The route then reads the withdrawal rows of the page's withdrawals (withdrawals.store.ts `detailsOf`).
        // The bench's withdrawals have none, as rows written before money out had none, so nothing is merged.
        const withdrawalIds = rows.filter((row) => row.type === 'withdrawal').map((row) => row.id);
        if (withdrawalIds.length > 0) await pool.query({ name: 'withdrawals', text: WITHDRAWALS_SQL, values: [withdrawalIds] });
        const body = JSON.stringify(
          rows.slice(0, limit - (PAGE_EXTRA ? 1 : 0)).map((row) => ({
            _id: row.id,
            type: row.type,
            amount: Number(row.amount_cents) / 100,
            status: row.status,
            userId: row.user_id,
            description: row.description,
            walletAddress: row.wallet_address,
            txHash: row.tx_hash,
            plan: row.plan,
            date: row.created_at.toISOString(),
            createdAt: row.created_at.toISOString(),
            updatedAt: row.updated_at.toISOString(),
          })),
        );
        response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
        response.end(body);
      } catch (error) {
        response.writeHead(500).end(String(error));
      }
    })
    .listen(port, '127.0.0.1');
}
const PAGE_EXTRA = process.env.BENCH_PAGE_EXTRA === '1';

async function prepare(rows: number, others: number) {
  if (process.argv.includes('--reuse') && (await databaseExists(DATABASE))) {
    console.log(`reusing ${DATABASE}`);
    return;
  }
  await freshDatabase(DATABASE);

  const c = new pg.Client({ connectionString: benchUrl });
  await c.connect();
  await c.query(
    `insert into users (email, first_name, last_name, password_hash, email_verified_at, created_at, updated_at)
     values ($1, 'Bench', 'Member', $2, now(), now(), now())`,
    [MEMBER.email, await hashPassword(MEMBER.password)],
  );
  await c.query(
    `insert into users (email, first_name, last_name, password_hash, email_verified_at, created_at, updated_at)
     select 'other.' || g || '@bench.example.com', 'Other', 'No ' || g, '!', now(), now(), now() from generate_series(1, 2000) g`,
  );
  const insert = (owner: string, count: number) =>
    c.query(
      `insert into transactions (user_id, type, amount_cents, status, description, wallet_address, plan, created_at, updated_at)
       select ${owner}, k.type,
              case k.type when 'deposit' then 70000 when 'withdrawal' then 2500 + (g % 100) * 100 else 300 end,
              case when k.type = 'withdrawal' and g % 7 = 0 then 'pending' else 'completed' end,
              'Bench ' || k.type || ' ' || g,
              case when k.type = 'withdrawal' then 'bc1qbench' || g end,
              case when k.type = 'deposit' then 'startium' end,
              now() - g * interval '1 hour', now() - g * interval '1 hour'
       from generate_series(1, $1::int) g
       cross join lateral (select case when g % 20 = 0 then 'deposit' when g % 10 = 1 then 'withdrawal' else 'payout' end as type) k`,
      [count],
    );
  await insert(`(select id from users where email = '${MEMBER.email}')`, rows);
  await insert(`(select id from users where email = 'other.' || (1 + g % 2000) || '@bench.example.com')`, others);
  await c.query('vacuum analyze');
  await c.end();
}

async function main() {
  const rows = option('rows', 120);
  const others = option('others', 200_000);
  const connections = option('connections', 32);
  const duration = option('duration', 10);
  const rounds = option('rounds', 3);
  const rate = option('rate', 200);
  await prepare(rows, others);

  const appPort = await freePort();
  const { dataDir, logFd, env: embedded } = productSetup('tf-bench-tx-', appPort);
  const env: NodeJS.ProcessEnv = { ...embedded, DATABASE_URL: benchUrl, APP_SECRET };
  buildApi();
  const app = spawnProduct(env, logFd);
  let bare: ChildProcess | undefined;
  try {
    const base = `http://127.0.0.1:${appPort}`;
    await waitFor(`${base}/api/health`, app);
    const login = await fetch(`${base}/api/users/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...MEMBER, rememberMe: true }),
    });
    if (!login.ok) throw new Error(`login failed: ${login.status} ${await login.text()}`);
    const headers = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
    const appUrl = `${base}/api/transactions`;
    const sample = await fetch(appUrl, { headers });
    const appBody = await sample.text();
    const answered = (JSON.parse(appBody) as unknown[]).length;
    const nextCursor = sample.headers.has('x-next-cursor');

    const barePort = await freePort();
    bare = spawn(process.execPath, ['--import', 'tsx', path.relative(root, import.meta.filename), '--bare-server', String(barePort), String(answered + (nextCursor ? 1 : 0))], {
      cwd: root,
      env: { ...process.env, BENCH_PAGE_EXTRA: nextCursor ? '1' : '0' },
      stdio: 'inherit',
    });
    const bareUrl = `http://127.0.0.1:${barePort}/api/transactions`;
    await waitFor(bareUrl, bare, { headers });
    const bareBody = await (await fetch(bareUrl, { headers })).text();
    if (bareBody !== appBody) throw new Error('the bare handler does not answer the same JSON as the route');

    console.log(`GET /api/transactions: ${answered} rows, ${Buffer.byteLength(appBody)} bytes${nextCursor ? ', X-Next-Cursor' : ''} (the member has ${rows}, the table ${rows + others})`);
    console.log(`machine: ${machine()}; ${connections} connections, ${duration} s per measurement, ${rounds} rounds; fixed rate ${rate}/s`);
    const target = (which: 'app' | 'bare') => ({ url: which === 'app' ? appUrl : bareUrl, pid: (which === 'app' ? app : bare!).pid! });
    for (const which of ['app', 'bare'] as const) await load({ url: target(which).url, connections, duration: 3, headers }, target(which).pid);

    const fast = { app: [] as Run[], bare: [] as Run[] };
    const fixed = { app: [] as Run[], bare: [] as Run[] };
    for (let round = 1; round <= rounds; round += 1) {
      const order = round % 2 ? (['bare', 'app'] as const) : (['app', 'bare'] as const);
      for (const which of order) {
        const run = await load({ url: target(which).url, connections, duration, headers }, target(which).pid);
        if (run.errors || run.non2xx) throw new Error(`${which}: ${run.errors} errors, ${run.non2xx} non-2xx answers`);
        fast[which].push(run);
        console.log(`round ${round} ${which.padEnd(4)} max   ${run.rps.toFixed(0).padStart(6)} req/s  p50 ${run.p50} ms  p99 ${run.p99} ms  CPU ${run.cpuPerRequest.toFixed(0)} µs/request`);
      }
      for (const which of order) {
        const run = await load({ url: target(which).url, connections, duration, headers, rate }, target(which).pid);
        if (run.errors || run.non2xx) throw new Error(`${which}: ${run.errors} errors, ${run.non2xx} non-2xx answers`);
        fixed[which].push(run);
        console.log(`round ${round} ${which.padEnd(4)} ${rate}/s ${run.rps.toFixed(0).padStart(6)} req/s  p50 ${run.p50} ms  p99 ${run.p99} ms`);
      }
    }
    const m = (runs: Run[], key: keyof Run) => median(runs.map((r) => r[key]));
    console.log('');
    console.log(`| server | req/s, as fast as answered | p99 at ${rate}/s | p50 at ${rate}/s | server CPU per request |`);
    console.log('|---|---|---|---|---|');
    console.log(`| bare node:http + pg | ${m(fast.bare, 'rps').toFixed(0)} | ${m(fixed.bare, 'p99')} ms | ${m(fixed.bare, 'p50')} ms | ${m(fast.bare, 'cpuPerRequest').toFixed(0)} µs |`);
    console.log(`| Terrafund (whole stack) | ${m(fast.app, 'rps').toFixed(0)} | ${m(fixed.app, 'p99')} ms | ${m(fixed.app, 'p50')} ms | ${m(fast.app, 'cpuPerRequest').toFixed(0)} µs |`);
    console.log('');
    console.log(
      `req/s ratio: ${(m(fast.app, 'rps') / m(fast.bare, 'rps')).toFixed(2)}x (issue 17: at least 0.8x); p99 at ${rate}/s ratio: ${(m(fixed.app, 'p99') / m(fixed.bare, 'p99')).toFixed(2)}x (at most 1.25x)`,
    );
  } finally {
    await stopServers(app, [bare], logFd, dataDir);
  }
}

if (process.argv[2] === '--bare-server') bareServer(Number(process.argv[3]), Number(process.argv[4]));
else await main();

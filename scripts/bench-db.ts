/**
 * What the PostgreSQL benchmarks (bench-admin-stats.ts, bench-admin-transactions.ts, bench-payouts.ts,
 * bench-transactions.ts) share: databases next to DATABASE_URL, a fresh one migrated by the app's own
 * migrate(), the statements the app sent (so its own SQL is EXPLAINed, not a hand-written copy), and the real
 * Fastify app with an admin signed in, timed through `app.inject`.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { buildApp, type App } from '../apps/api/src/app';
import { loadConfig } from '../apps/api/src/config';
import { connectPostgres } from '../apps/api/src/db/client';
import type { Clock } from '../apps/api/src/lib/clock';

/** The server the bench databases are created on (and dropped from). */
export const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** The URL of `database` on the same server as DATABASE_URL. */
export function databaseUrl(database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export const databaseExists = (database: string) =>
  withClient(adminUrl, async (c) => (await c.query('select 1 from pg_database where datname = $1', [database])).rowCount === 1);

/** How many transactions `database` holds (whether a filled database can be reused). */
export const transactionCount = (database: string) =>
  withClient(databaseUrl(database), async (c) => Number((await c.query('select count(*) from transactions')).rows[0].count));

/** Drops `database` when it exists, creates it empty and migrates it with the app's own migrate(). */
export async function freshDatabase(database: string) {
  await withClient(adminUrl, async (c) => {
    await c.query(`drop database if exists ${database} with (force)`);
    await c.query(`create database ${database}`);
  });
  const handle = connectPostgres(databaseUrl(database), 2);
  await handle.migrate();
  await handle.close();
}

/**
 * With `reuse` (--reuse), keeps `database` when it exists and holds exactly `transactions` transactions, says
 * so and answers true; otherwise creates it afresh (freshDatabase) and answers false: the caller fills it.
 */
export async function reuseOrCreate(database: string, transactions: number, reuse: boolean): Promise<boolean> {
  if (reuse && (await databaseExists(database))) {
    const count = await transactionCount(database);
    if (count === transactions) {
      console.log(`reusing ${database} (${count.toLocaleString('en-US')} transactions)`);
      return true;
    }
  }
  await freshDatabase(database);
  return false;
}

export type SentStatement = { text: string; values: unknown[] };

/**
 * From now on, every statement the app sends through a pg pool is kept (the newest `keep` at least, trimmed
 * back to `trimTo` when more pile up), so the one under study can be EXPLAINed as the app sent it.
 */
export function recordStatements(keep: number, trimTo: number): SentStatement[] {
  const sent: SentStatement[] = [];
  const originalQuery = pg.Pool.prototype.query;
  pg.Pool.prototype.query = function (this: pg.Pool, ...queryArgs: unknown[]) {
    const [first, second] = queryArgs as [unknown, unknown];
    if (first && typeof first === 'object' && 'text' in first) {
      const q = first as { text: string; values?: unknown[] };
      sent.push({ text: q.text, values: q.values ?? (Array.isArray(second) ? second : []) });
    } else if (typeof first === 'string') {
      sent.push({ text: first, values: Array.isArray(second) ? second : [] });
    }
    if (sent.length > keep) sent.splice(0, sent.length - trimTo);
    return (originalQuery as (...a: unknown[]) => unknown).apply(this, queryArgs);
  } as typeof pg.Pool.prototype.query;
  return sent;
}

/** EXPLAIN (`options`) of a statement the app sent; EXPLAIN takes no bind parameters, so its values are written in as literals. */
export function explainSent(url: string, statement: SentStatement, options: string): Promise<string[]> {
  return withClient(url, async (c) => {
    const text = statement.text.replace(/\$(\d+)/g, (_, n: string) => {
      const value = statement.values[Number(n) - 1];
      return typeof value === 'number' ? String(value) : c.escapeLiteral(String(value));
    });
    return (await c.query<{ 'QUERY PLAN': string }>(`explain (${options}) ${text}`)).rows.map((r) => r['QUERY PLAN']);
  });
}

export type SignedInApp = { app: App; headers: Record<string, string>; close: () => Promise<void> };

/**
 * The real app in production mode on `database` (jobs off, no web files, silent, a payment provider and mail
 * server named but never called), with `admin` signed in by
 * password (REQUIRE_ADMIN_2FA off for the bench): the authorization header to send, and close for both.
 */
export async function signedInAdminApp(options: {
  database: string;
  admin: { email: string; password: string };
  dataDirName: string;
  clock?: Clock;
}): Promise<SignedInApp> {
  const url = databaseUrl(options.database);
  const database = connectPostgres(url, 10);
  const config = loadConfig({
    NODE_ENV: 'production',
    REQUIRE_ADMIN_2FA: 'false',
    // Production refuses the sandbox and mail to the log; the bench sends no mail and takes no payment (jobs
    // off), so a provider and a mail server are named only to start.
    PAYMENT_PROVIDER: 'btcpay',
    PAYOUT_PROVIDER: 'manual',
    BTCPAY_URL: 'https://btcpay.invalid',
    BTCPAY_API_KEY: 'bench-unused',
    BTCPAY_STORE_ID: 'bench-unused',
    BTCPAY_WEBHOOK_SECRET: 'bench-unused-webhook-secret',
    SMTP_URL: 'smtp://127.0.0.1:2525',
    DATABASE_URL: url,
    DATA_DIR: path.join(os.tmpdir(), `${options.dataDirName}-${process.pid}`),
    APP_SECRET: randomBytes(48).toString('base64url'),
    LOG_LEVEL: 'silent',
  });
  const app = await buildApp({
    config: { ...config, runJobs: false, webDistDir: undefined },
    db: database.db,
    clock: options.clock,
    logger: pino({ level: 'silent' }),
  });
  const login = await app.inject({ method: 'POST', url: '/api/users/login', payload: { ...options.admin, rememberMe: true } });
  if (login.statusCode !== 200) throw new Error(`admin login failed: ${login.body}`);
  return {
    app,
    headers: { authorization: `Bearer ${login.json<{ token: string }>().token}` },
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

/** One GET through `app.inject`, timed in milliseconds; throws unless it answers 200. */
export async function timedGet(target: SignedInApp, url: string, label = url) {
  const started = process.hrtime.bigint();
  const response = await target.app.inject({ method: 'GET', url, headers: target.headers });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (response.statusCode !== 200) throw new Error(`${label}: ${response.statusCode} ${response.body}`);
  return { ms, response };
}

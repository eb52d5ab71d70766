// scratch (deleted before finishing)
import pg from 'pg';
import { connectPostgres } from '../apps/api/src/db/client';
const adminUrl = 'postgres://postgres@127.0.0.1:5432/test';
const n = Number(process.argv[2] ?? 50000);
const name = process.argv[3] ?? 'tf_bench_scratch';
const dbUrl = (db: string) => adminUrl.replace('/test', `/${db}`);
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`drop database if exists ${name} with (force)`);
await admin.query(`create database ${name}`);
await admin.end();
const h = connectPostgres(dbUrl(name), 2);
await h.migrate();
await h.close();
const c = new pg.Client({ connectionString: dbUrl(name) });
await c.connect();
await c.query(`insert into users (id, email, first_name, last_name, password_hash, created_at, updated_at)
  select gen_random_uuid(), 'bench-' || i || '@x.test', 'B', 'M', 'x', now(), now() from generate_series(1, $1::int) i`, [n]);
if (process.argv[4] !== 'nowallets') await c.query(`insert into ledger_accounts (code, user_id, kind) select 'member:' || id || ':wallet', id, 'member_wallet' from users`);
await c.query(`
  insert into memberships (user_id, pack, price_cents, daily_dividend_cents, started_at, ends_at, status, created_at)
  select u.id, 'gold', 250000, 1000, s.started, s.started + interval '3 years', 'active', s.started
  from (select id, row_number() over () as i from users) u
  cross join lateral (select '2026-11-19T00:00:00Z'::timestamptz + (u.i % 86400) * interval '1 second' as started) s`);
await c.query('vacuum analyze users, memberships, ledger_accounts');
await c.end();

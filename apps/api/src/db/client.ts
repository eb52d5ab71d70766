import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { backupSocketPath, serveBackups } from './backup-socket';
import * as schema from './schema';

type Schema = typeof schema;
/** Both drivers give the same Drizzle API; services are written against this type only. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle, or the database itself, for helpers that run inside either. */
export type Executor = Parameters<Parameters<Database['transaction']>[0]>[0] | Database;

/**
 * A statement Drizzle builds once per database and sends afterwards as a prepared statement with new values:
 * for the paths every signed-in request takes (the session lookup, a member's first page), where building the
 * SQL anew each time was a large part of the server's CPU (docs/performance.md). Values go in as placeholders.
 */
export function preparedStatement<T>(build: (db: Database) => T): (db: Database) => T {
  const built = new WeakMap<Database, T>();
  return (db) => {
    let statement = built.get(db);
    if (!statement) {
      statement = build(db);
      built.set(db, statement);
    }
    return statement;
  };
}

/**
 * The rows of a prepared statement as the driver returns them, without Drizzle's row mapping: Drizzle's `all()`,
 * which both drivers' prepared queries have at run time though its types do not show it. For a hot read that
 * converts its own columns (a member's transactions page); the tests of that read run on both drivers.
 */
export function unmappedRows<R>(statement: object, values: Record<string, unknown>): Promise<R[]> {
  const all = (statement as { all?: (values: Record<string, unknown>) => Promise<R[]> }).all;
  if (typeof all !== 'function') throw new Error('this Drizzle version has no unmapped read (prepared `all()`)');
  return all.call(statement, values);
}

export const migrationsFolder = path.resolve(import.meta.dirname, '../../drizzle');

export type DatabaseHandle = {
  db: Database;
  kind: 'postgres' | 'pglite';
  migrate(): Promise<void>;
  close(): Promise<void>;
};

/** An arbitrary constant: the advisory lock that keeps two servers from migrating at once. */
const MIGRATION_LOCK_ID = 7_340_021;

export function connectPostgres(url: string, poolSize = 10): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    // Waiting for a connection (to open one, or for a free one in a busy pool) gives up after 5 s: a request during
    // a database restart is answered 503 well within 10 s (plugins/errors.ts), never left hanging.
    connectionTimeoutMillis: 5_000,
    // A server that vanished without closing its sockets is noticed by TCP instead of never.
    keepAlive: true,
  });
  // An idle client that errors (the server restarted, `pg_ctl restart -m fast` ended its session) is dropped by the
  // pool and must not crash the process. A client checked out between two statements of a transaction has no
  // listener of the pool's: its error (the same restart) is answered by its next statement, which fails, so a
  // listener of its own keeps the event from being an unhandled one that would end the process.
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  const db = drizzleNodePg({ client: pool, schema }) as unknown as Database;
  return {
    db,
    kind: 'postgres',
    async migrate() {
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        await migrateNodePg(drizzleNodePg({ client, schema }), { migrationsFolder });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {});
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/**
 * Embedded PostgreSQL (PGlite): under `dataDir`, or in memory when `dataDir` is undefined. With `backupSocket`, the
 * process answers backups of it there while it is open (db/backup-socket.ts: a running server's `npm run backup`).
 */
export function connectPglite(dataDir?: string, loadDataDir?: Blob, options: { backupSocket?: string } = {}): DatabaseHandle {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const client = new PGlite({ dataDir, loadDataDir, extensions: { pg_trgm } });
  const db = drizzlePglite({ client, schema }) as unknown as Database;
  const backups = options.backupSocket
    ? serveBackups(client, options.backupSocket, (error) => process.emitWarning(`backup socket: ${String(error)}`)).catch((error: unknown) => {
        process.emitWarning(`backups of the running server are not served: ${String(error)}`);
        return undefined;
      })
    : undefined;
  return {
    db,
    kind: 'pglite',
    async migrate() {
      await migratePglite(drizzlePglite({ client, schema }), { migrationsFolder });
    },
    async close() {
      await (await backups)?.close();
      await client.close();
    },
    ...{ pglite: client },
  };
}

export function connectDatabase(options: { databaseUrl?: string; dataDir: string; databasePoolSize?: number }): DatabaseHandle {
  return options.databaseUrl
    ? connectPostgres(options.databaseUrl, options.databasePoolSize)
    : connectPglite(path.join(options.dataDir, 'pglite'), undefined, { backupSocket: backupSocketPath(options.dataDir) });
}

/** Rows of a raw SQL query; both drivers answer `{rows}`. */
export async function queryRows<T>(db: Executor, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

import { createReadStream, existsSync, mkdirSync, openSync, readFileSync, readSync, closeSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import tar from 'tar-stream';
import { ConfigError, loadConfig, type Config } from '../config';
import { assertStorageKey } from '../lib/storage';
import { explainToolFailure, MANIFEST, PG_DUMP_MAGIC, PGLITE_ENTRY, postgresTool, runTool, SECRET_ENTRY, toolVersion, UPLOADS_PREFIX, type Manifest } from './backup-files';

/**
 * `npm run restore -- FILE`: restores a backup of `npm run backup` into an empty target, and refuses any other.
 * - A PostgreSQL backup (pg_dump custom format) goes into DATABASE_URL's database, which must hold no table yet
 *   (`createdb` a new one): pg_restore, without owners or grants, stopping at the first error.
 * - An embedded backup goes into DATA_DIR, whose database and uploads must not exist yet (a fresh directory): the
 *   database, the generated app-secret and the uploaded files, as they were.
 * Then start the server on it (it migrates a backup of an older version forward) and run `npm run ledger:check`.
 */
async function main() {
  const { positionals } = parseArgs({ allowPositionals: true, options: {} });
  const [file] = positionals;
  if (!file || positionals.length > 1) throw new UsageError('usage: npm run restore -- FILE');
  if (!existsSync(file)) throw new UsageError(`no such file: ${file}`);
  const config = loadConfig({ ...process.env, APP_SECRET: process.env.APP_SECRET ?? NO_SECRET });
  const head = Buffer.alloc(PG_DUMP_MAGIC.length);
  const fd = openSync(file, 'r');
  readSync(fd, head, 0, head.length, 0);
  closeSync(fd);
  const postgresBackup = head.equals(PG_DUMP_MAGIC);

  if (postgresBackup) {
    if (!config.databaseUrl) throw new UsageError('this is a PostgreSQL backup (pg_dump): set DATABASE_URL to the empty database to restore it into');
    await restorePostgres(config.databaseUrl, file);
  } else {
    if (config.databaseUrl) {
      throw new UsageError('this is a backup of the embedded database: unset DATABASE_URL and set DATA_DIR to the new data directory to restore it into');
    }
    await restoreEmbedded(config, file);
  }
}

class UsageError extends Error {}

/**
 * The restore needs no APP_SECRET, and must not create one in DATA_DIR (loadConfig does when it is unset): the one in the
 * backup is the instance's.
 */
const NO_SECRET = 'the-restore-command-uses-no-app-secret-0123456789';

/** How many tables the database already has outside PostgreSQL's own schemas. */
async function tablesIn(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from pg_class c join pg_namespace s on s.oid = c.relnamespace
       where c.relkind in ('r', 'p') and s.nspname not in ('pg_catalog', 'information_schema') and s.nspname not like 'pg_toast%'`,
    );
    return rows[0]!.n;
  } finally {
    await client.end();
  }
}

async function restorePostgres(databaseUrl: string, file: string) {
  const tables = await tablesIn(databaseUrl);
  if (tables > 0) {
    throw new UsageError(`the target database is not empty (${tables} tables): restore only into a new database (createdb, then point DATABASE_URL at it)`);
  }
  const pgRestore = postgresTool('pg_restore');
  const version = await toolVersion(pgRestore);
  const result = await runTool(pgRestore, ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${databaseUrl}`, file]);
  if (result.code !== 0) throw new Error(explainToolFailure('pg_restore', result.stderr, version));
  console.log(`restored ${file} into the PostgreSQL database (${version}). Start the server on it, then run npm run ledger:check.`);
}

/** The entries of an embedded backup, read whole (each is at most one uploaded file or the database). */
async function readBackup(file: string): Promise<Map<string, Buffer>> {
  const entries = new Map<string, Buffer>();
  const extract = tar.extract();
  const reading = new Promise<void>((resolve, reject) => {
    extract.on('entry', (header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: unknown) => chunks.push(chunk as Buffer));
      stream.on('end', () => {
        if (header.type === 'file') entries.set(header.name, Buffer.concat(chunks));
        next();
      });
      stream.on('error', reject);
    });
    extract.on('finish', () => resolve());
    extract.on('error', reject);
  });
  createReadStream(file).on('error', (error) => extract.destroy(error)).pipe(extract);
  await reading.catch((error: unknown) => {
    throw new UsageError(`not a backup of npm run backup: ${error instanceof Error ? error.message : String(error)}`);
  });
  return entries;
}

async function restoreEmbedded(config: Config, file: string) {
  const entries = await readBackup(file);
  const manifest = entries.get(MANIFEST);
  const database = entries.get(PGLITE_ENTRY);
  if (!manifest || !database) throw new UsageError(`not a backup of npm run backup (no ${MANIFEST} or ${PGLITE_ENTRY} in it)`);
  const about = JSON.parse(manifest.toString('utf8')) as Manifest;
  if (about.format !== 'terrafund-embedded-backup' || about.version !== 1) throw new UsageError(`unknown backup format: ${about.format} ${about.version}`);

  const pgliteDir = path.join(config.dataDir, 'pglite');
  const uploadsDir = path.join(config.dataDir, 'uploads');
  const secretFile = path.join(config.dataDir, 'app-secret');
  const nonEmpty = (dir: string) => existsSync(dir) && readdirSync(dir).length > 0;
  if (nonEmpty(pgliteDir)) throw new UsageError(`${pgliteDir} already holds a database: restore only into a new DATA_DIR`);
  if (nonEmpty(uploadsDir)) throw new UsageError(`${uploadsDir} already holds files: restore only into a new DATA_DIR`);
  const secret = entries.get(SECRET_ENTRY);
  if (secret && existsSync(secretFile) && !readFileSync(secretFile).equals(secret)) {
    throw new UsageError(`${secretFile} holds another APP_SECRET than the backup: restore only into a new DATA_DIR`);
  }

  mkdirSync(pgliteDir, { recursive: true });
  const pglite = new PGlite({ dataDir: pgliteDir, loadDataDir: new Blob([new Uint8Array(database)]), extensions: { pg_trgm } });
  let summary: { users: number; transactions: number };
  try {
    const { rows } = await pglite.query<{ users: number; transactions: number }>(
      'select (select count(*)::int from users) as users, (select count(*)::int from transactions) as transactions',
    );
    summary = rows[0]!;
  } finally {
    await pglite.close();
  }
  if (secret) writeFileSync(secretFile, secret, { mode: 0o600 });
  let files = 0;
  for (const [name, bytes] of entries) {
    if (!name.startsWith(UPLOADS_PREFIX)) continue;
    const key = name.slice(UPLOADS_PREFIX.length);
    // A key of ours only: a crafted backup cannot write outside DATA_DIR/uploads.
    assertStorageKey(key);
    const target = path.join(uploadsDir, key);
    mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
    writeFileSync(target, bytes, { mode: 0o600, flag: 'wx' });
    files += 1;
  }
  console.log(
    `restored ${file} (made ${about.createdAt}) into ${config.dataDir}: ${summary.users} accounts, ${summary.transactions} transactions, ${files} uploaded files${secret ? ', the app secret' : ''}. ` +
      'Start the server on it, then run npm run ledger:check.',
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError || error instanceof UsageError || error instanceof Error ? error.message : error);
  process.exit(1);
});

import { createWriteStream, existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import tar from 'tar-stream';
import { ConfigError, loadConfig, type Config } from '../config';
import { backupSocketPath, dumpPglite, requestBackup } from '../db/backup-socket';
import {
  explainToolFailure,
  filesUnder,
  MANIFEST,
  PGLITE_ENTRY,
  postgresTool,
  runTool,
  SECRET_ENTRY,
  toolVersion,
  UPLOADS_PREFIX,
  type Manifest,
} from './backup-files';

/**
 * `npm run backup -- --out FILE`: a consistent backup of the configured database, taken while the server runs.
 * - PostgreSQL (DATABASE_URL): `pg_dump --format=custom`, one snapshot of the whole database; restore it with
 *   `npm run restore -- FILE` or pg_restore itself. Files in the bucket (or DATA_DIR/uploads) are backed up apart.
 * - Embedded (PGlite under DATA_DIR): the running server makes the copy (it alone may open the data directory), asked
 *   over its backup socket in DATA_DIR/run; when no server runs, this command opens the data directory itself. The
 *   file also holds DATA_DIR's generated app-secret and, without a bucket, the uploaded files: one file restores the
 *   whole instance. The files are copied after the database, so every file a row names is in the backup.
 * The backup is written next to FILE and renamed into place when complete: FILE is never a partial backup.
 */
async function main() {
  const { values } = parseArgs({ options: { out: { type: 'string' } }, allowPositionals: false });
  if (!values.out) throw new UsageError('usage: npm run backup -- --out FILE');
  const out = path.resolve(values.out);
  const partial = `${out}.partial`;
  const config = loadConfig({ ...process.env, APP_SECRET: process.env.APP_SECRET ?? NO_SECRET });
  try {
    const summary = config.databaseUrl ? await backupPostgres(config.databaseUrl, partial) : await backupEmbedded(config, partial);
    renameSync(partial, out);
    console.log(`backup written to ${out}: ${summary}`);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
}

class UsageError extends Error {}

/**
 * The backup needs no APP_SECRET, and must not create one in DATA_DIR (loadConfig does when it is unset): the one in the
 * backup is the instance's.
 */
const NO_SECRET = 'the-backup-command-uses-no-app-secret-0123456789';

async function backupPostgres(databaseUrl: string, file: string): Promise<string> {
  const pgDump = postgresTool('pg_dump');
  const version = await toolVersion(pgDump);
  // --format=custom: compressed, restorable table by table, read by pg_restore. One transaction (a snapshot), so the
  // dump is consistent while the instances keep writing.
  const result = await runTool(pgDump, ['--format=custom', '--no-owner', '--no-privileges', `--file=${file}`, `--dbname=${databaseUrl}`]);
  if (result.code !== 0) throw new Error(explainToolFailure('pg_dump', result.stderr, version));
  return `PostgreSQL, pg_dump custom format (${version}). Uploaded files are not in it: back up the bucket (or DATA_DIR/uploads) too (docs/operations.md).`;
}

async function backupEmbedded(config: Config, file: string): Promise<string> {
  const pgliteDir = path.join(config.dataDir, 'pglite');
  let database = await requestBackup(backupSocketPath(config.dataDir));
  const from = database ? 'the running server' : 'the data directory (no server running)';
  if (!database) {
    if (!existsSync(path.join(pgliteDir, 'PG_VERSION'))) throw new Error(`no embedded database in ${pgliteDir} (is DATA_DIR right?)`);
    const pglite = new PGlite({ dataDir: pgliteDir, extensions: { pg_trgm } });
    try {
      database = await dumpPglite(pglite);
    } finally {
      await pglite.close();
    }
  }

  const secretFile = path.join(config.dataDir, 'app-secret');
  const uploadsDir = path.join(config.dataDir, 'uploads');
  const uploads = config.s3 ? [] : filesUnder(uploadsDir);
  const manifest: Manifest = {
    format: 'terrafund-embedded-backup',
    version: 1,
    createdAt: new Date().toISOString(),
    files: uploads.length,
    hasAppSecret: existsSync(secretFile),
  };
  const pack = tar.pack();
  const written = pipeline(pack, createWriteStream(file, { mode: 0o600 }));
  const entry = (name: string, bytes: Buffer) =>
    new Promise<void>((resolve, reject) => pack.entry({ name, size: bytes.length, mode: 0o600 }, bytes, (error) => (error ? reject(error) : resolve())));
  await entry(MANIFEST, Buffer.from(JSON.stringify(manifest, null, 2)));
  await entry(PGLITE_ENTRY, database);
  if (manifest.hasAppSecret) await entry(SECRET_ENTRY, readFileSync(secretFile));
  for (const name of uploads) await entry(`${UPLOADS_PREFIX}${name}`, readFileSync(path.join(uploadsDir, name)));
  pack.finalize();
  await written;
  const files = config.s3 ? 'uploaded files are in the bucket: back it up apart' : `${uploads.length} uploaded files`;
  return `embedded database from ${from} (${(database.length / 1024 / 1024).toFixed(1)} MiB compressed), ${files}${manifest.hasAppSecret ? ', the app secret' : ''}.`;
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError || error instanceof UsageError || error instanceof Error ? error.message : error);
  process.exit(1);
});

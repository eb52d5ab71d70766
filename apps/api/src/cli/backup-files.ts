import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * What `npm run backup` and `npm run restore` share: the embedded backup's layout, and finding and running
 * PostgreSQL's own pg_dump and pg_restore.
 *
 * An embedded backup is a tar file: `terrafund-backup.json` (what it is), `pglite.tar.gz` (the database's data
 * directory as PGlite dumps it), `app-secret` (the generated APP_SECRET, when DATA_DIR holds one: queued mail, two-factor
 * secrets and signed links need it) and `uploads/…` (the uploaded files, when they are on the local disk).
 * A PostgreSQL backup is `pg_dump --format=custom`, exactly: `pg_restore` reads it without us.
 */
export const MANIFEST = 'terrafund-backup.json';
export const PGLITE_ENTRY = 'pglite.tar.gz';
export const SECRET_ENTRY = 'app-secret';
export const UPLOADS_PREFIX = 'uploads/';
export type Manifest = { format: 'terrafund-embedded-backup'; version: 1; createdAt: string; files: number; hasAppSecret: boolean };

/** A pg_dump custom-format file starts with these bytes. */
export const PG_DUMP_MAGIC = Buffer.from('PGDMP');

/**
 * Where pg_dump and pg_restore are: PG_BIN_DIR, else the newest Debian/Ubuntu client (/usr/lib/postgresql/<major>/bin:
 * a newer pg_dump dumps older servers, never the reverse), else PATH.
 */
export function postgresTool(tool: 'pg_dump' | 'pg_restore'): string {
  const dirs = [process.env.PG_BIN_DIR];
  if (existsSync('/usr/lib/postgresql')) {
    for (const major of readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a))) dirs.push(path.join('/usr/lib/postgresql', major, 'bin'));
  }
  const found = dirs.find((dir) => dir && existsSync(path.join(dir, tool)));
  return found ? path.join(found, tool) : tool;
}

/** Runs a PostgreSQL tool to its end; its standard error, and its exit code. */
export function runTool(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'inherit', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'ENOENT' ? new Error(`${command} was not found: install PostgreSQL's client (apt-get install postgresql-client) or set PG_BIN_DIR`) : error),
    );
    child.once('exit', (code) => resolve({ code, stderr }));
  });
}

/** pg_dump's or pg_restore's refusal, in words that say what to do. */
export function explainToolFailure(tool: string, stderr: string, version: string): string {
  const mismatch = /server version: ([\d.]+)[^;]*; \S+ version: ([\d.]+)/.exec(stderr);
  if (mismatch) {
    const major = mismatch[1]!.split('.')[0];
    return (
      `${tool} ${mismatch[2]} cannot back up a PostgreSQL ${mismatch[1]} server: it must be at least as new as the server. ` +
      `Install postgresql-client-${major} (or newer) and run again, or set PG_BIN_DIR to its bin directory.\n${stderr.trim()}`
    );
  }
  if (/unsupported version .* in file header/.test(stderr)) {
    return `${tool} (${version}) is older than the pg_dump that wrote this backup: install a newer postgresql-client, or set PG_BIN_DIR.\n${stderr.trim()}`;
  }
  return `${tool} failed:\n${stderr.trim()}`;
}

/** The version line of a PostgreSQL tool ("pg_dump (PostgreSQL) 15.20 …"), or why there is none. */
export async function toolVersion(command: string): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(command, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.once('error', () => resolve('not found'));
    child.once('exit', () => resolve(out.trim()));
  });
}

/** Every file under `dir`, as paths relative to it (none when it does not exist). */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { connectPglite, queryRows } from '../db/client';

const root = path.resolve(import.meta.dirname, '../../../..');
const tsx = path.join(root, 'node_modules/.bin/tsx');
const dirs: string[] = [];

/** `npm run ledger:check` as an operator runs it, on the embedded database under `dataDir`. */
function ledgerCheck(dataDir: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, APP_SECRET: 'a-test-secret-that-is-long-enough-0123456789' };
  for (const name of ['DATABASE_URL', 'NODE_ENV', 'TEST_DB', 'VITEST', 'VITEST_WORKER_ID', 'VITEST_POOL_ID']) delete env[name];
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    execFile(tsx, ['apps/api/src/cli/ledger-check.ts'], { cwd: root, env }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: stdout + stderr }),
    );
  });
}

const newDataDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tf-ledger-check-'));
  dirs.push(dir);
  return dir;
};

describe('npm run ledger:check reads and never migrates', () => {
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('refuses where there is no database, and creates none', async () => {
    const dataDir = newDataDir();
    const result = await ledgerCheck(dataDir);
    expect(result.code).toBe(2);
    expect(result.output).toContain('ledger:check refused: no database at');
    expect(existsSync(path.join(dataDir, 'pglite'))).toBe(false);
  });

  it('refuses a database whose migrations are not applied, and leaves it unmigrated', async () => {
    const dataDir = newDataDir();
    await connectPglite(path.join(dataDir, 'pglite')).close();
    const result = await ledgerCheck(dataDir);
    expect(result.code).toBe(2);
    expect(result.output).toMatch(/ledger:check refused: the database lacks \d+ of its migrations; ledger:check never migrates/);
    const database = connectPglite(path.join(dataDir, 'pglite'));
    const [table] = await queryRows<{ name: string | null }>(database.db, sql`select to_regclass('drizzle.__drizzle_migrations')::text as name`);
    await database.close();
    expect(table?.name).toBeNull();
  });

  it('checks a migrated database', async () => {
    const dataDir = newDataDir();
    const testDb = inject('testDb');
    const database = testDb.kind === 'pglite'
      ? connectPglite(path.join(dataDir, 'pglite'), new Blob([readFileSync(testDb.dumpFile)]))
      : connectPglite(path.join(dataDir, 'pglite'));
    if (testDb.kind !== 'pglite') await database.migrate();
    await database.close();
    const result = await ledgerCheck(dataDir);
    expect(result.output).toContain('ledger ok');
    expect(result.code).toBe(0);
  });
});

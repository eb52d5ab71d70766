import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { connectPglite, connectPostgres } from '../src/db/client';

declare module 'vitest' {
  export interface ProvidedContext {
    testDb: { kind: 'pglite'; dumpFile: string } | { kind: 'postgres'; adminUrl: string; template: string };
  }
}

/**
 * Migrates once per run: a PGlite data directory dumped to a file, or a PostgreSQL template database.
 * Each test app then starts from a copy (epic-stack's migrated-template approach), never re-migrating.
 */
export default async function setup(project: TestProject) {
  if ((project.config.env?.TEST_DB ?? process.env.TEST_DB) === 'postgres') {
    const adminUrl = process.env.DATABASE_URL;
    if (!adminUrl) throw new Error('TEST_DB=postgres needs DATABASE_URL');
    const template = `tf_template_${process.pid}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${template}`);
    await admin.query(`create database ${template}`);
    const url = new URL(adminUrl);
    url.pathname = `/${template}`;
    const handle = connectPostgres(url.toString(), 2);
    await handle.migrate();
    await handle.close();
    project.provide('testDb', { kind: 'postgres', adminUrl, template });
    return async () => {
      // Databases left by crashed runs are removed too.
      const { rows } = await admin.query<{ datname: string }>(
        `select datname from pg_database where datname like 'tf\\_t\\_${process.pid}\\_%' or datname = $1`,
        [template],
      );
      for (const { datname } of rows) await admin.query(`drop database if exists ${datname} with (force)`);
      await admin.end();
    };
  }

  const dir = mkdtempSync(path.join(os.tmpdir(), 'tf-pglite-'));
  const handle = connectPglite();
  await handle.migrate();
  const dump = await (handle as unknown as { pglite: { dumpDataDir(c: 'none'): Promise<Blob> } }).pglite.dumpDataDir('none');
  const dumpFile = path.join(dir, 'migrated.tar');
  writeFileSync(dumpFile, Buffer.from(await dump.arrayBuffer()));
  await handle.close();
  project.provide('testDb', { kind: 'pglite', dumpFile });
  return () => rmSync(dir, { recursive: true, force: true });
}

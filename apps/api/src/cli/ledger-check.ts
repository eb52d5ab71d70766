import { existsSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { ConfigError, loadConfig } from '../config';
import { connectDatabase, migrationsFolder, queryRows, type Database } from '../db/client';
import { checkLedger } from '../modules/reports';
import { checkProjectLedger } from '../modules/projects';

/**
 * `npm run ledger:check`: verifies every ledger invariant against the database the server uses and exits
 * non-zero when any is broken. It reads and never writes: a database whose migrations are not all applied
 * (an older one, or none yet) is refused, not migrated; the server migrates at start. Stop the server first
 * when it runs on the embedded database.
 */
async function main() {
  const config = loadConfig();
  const embeddedDir = path.join(config.dataDir, 'pglite');
  if (!config.databaseUrl && !existsSync(embeddedDir)) {
    refuse(`no database at ${embeddedDir}: start the server once (it creates and migrates it), or set DATABASE_URL`);
    return;
  }
  const database = connectDatabase(config);
  try {
    const missing = await unappliedMigrations(database.db);
    if (missing > 0) {
      refuse(`the database lacks ${missing} of its migrations; ledger:check never migrates: start the server once (it migrates at start), then check again`);
      return;
    }
    const problems = [...(await checkLedger(database.db)), ...(await checkProjectLedger(database.db))];
    if (problems.length === 0) {
      console.log(
        'ledger ok: every entry sums to zero, every balance equals its postings, no member balance is negative, ' +
          'one settlement per provider invoice, member_pack equals the active pack price, ' +
          'one payout per membership and business day and one per member, ' +
          'each completed withdrawal with its tx hash, hold and fee and each failed one refunded its hold, ' +
          'each project funded by exactly its investments and each invested balance equal to its investments',
      );
      return;
    }
    for (const p of problems) console.error(`broken: ${p.rule}: ${p.detail}`);
    process.exitCode = 1;
  } finally {
    await database.close();
  }
}

function refuse(reason: string) {
  console.error(`ledger:check refused: ${reason}`);
  process.exitCode = 2;
}

/**
 * How many of the committed migrations the database has not applied, read from Drizzle's own record (the
 * instant of the last migration applied, as its migrator compares it) without writing anything.
 */
async function unappliedMigrations(db: Database): Promise<number> {
  const committed = readMigrationFiles({ migrationsFolder });
  const [table] = await queryRows<{ name: string | null }>(db, sql`select to_regclass('drizzle.__drizzle_migrations')::text as name`);
  if (!table?.name) return committed.length;
  const [last] = await queryRows<{ at: string | null }>(db, sql`select max(created_at)::text as at from drizzle.__drizzle_migrations`);
  const lastApplied = last?.at === null || last?.at === undefined ? -Infinity : Number(last.at);
  return committed.filter((m) => m.folderMillis > lastApplied).length;
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});

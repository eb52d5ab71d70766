import pino from 'pino';
import { ConfigError, loadConfig } from '../config';
import { connectDatabase } from '../db/client';
import { createSecrets } from '../lib/crypto';
import { systemClock } from '../lib/clock';
import { checkLedger } from '../modules/reports';
import { runMembershipEnds } from '../modules/memberships';
import { runPayouts } from '../modules/payouts';

/**
 * `npm run payouts`: pays every due business day not yet paid, then ends the memberships whose end has passed
 * and queues the end mails due (modules/memberships/membership-end.service.ts), against the database the server uses
 * (DATABASE_URL, or the embedded one under DATA_DIR: stop the server first, PGlite allows one process).
 * Safe to run while a server on PostgreSQL runs its own payouts: nothing is paid twice.
 */
async function main() {
  const config = loadConfig();
  const { payoutTime } = config;
  const database = connectDatabase(config);
  try {
    await database.migrate();
    const result = await runPayouts(database.db, { clock: systemClock, payoutTime });
    const days = result.days.length === 0 ? 'none due' : `${result.days[0]} … ${result.days[result.days.length - 1]} (${result.days.length})`;
    console.log(`payouts: business days ${days}; ${result.paid} dividends paid, ${(result.amountCents / 100).toFixed(2)} USD`);
    // As the server's scheduler does after each run: memberships whose end has passed, and the end mails (queued
    // in the outbox; the server's mail worker sends them).
    const ends = await runMembershipEnds({
      db: database.db,
      clock: systemClock,
      secrets: createSecrets(config.appSecret),
      config,
      logger: pino({ level: 'warn' }),
      mailQueued: () => {},
    });
    console.log(`memberships: ${ends.ended} ended, ${ends.reminders} end mails queued`);
    const problems = await checkLedger(database.db);
    for (const p of problems) console.error(`broken: ${p.rule}: ${p.detail}`);
    if (problems.length > 0) process.exitCode = 1;
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});

import { parseArgs } from 'node:util';
import pino from 'pino';
import { EMAIL_PATTERN, PASSWORD_MIN_LENGTH } from '@terrafund/contracts';
import { ConfigError, loadConfig } from '../config';
import { connectDatabase } from '../db/client';
import { systemClock } from '../lib/clock';
import { ensureAdmin } from '../modules/auth/auth.service';

/**
 * `npm run admin:create -- --email you@example.com --password '…'`: creates an admin in the database the
 * server uses (DATABASE_URL, or the embedded one under DATA_DIR), or promotes an existing account.
 * Stop the server first when it runs on the embedded database: PGlite allows one process at a time.
 */
async function main() {
  const { values } = parseArgs({
    options: { email: { type: 'string' }, password: { type: 'string' } },
  });
  const email = values.email ?? '';
  const password = values.password ?? '';
  if (!EMAIL_PATTERN.test(email) || password.length < PASSWORD_MIN_LENGTH) {
    console.error(`usage: npm run admin:create -- --email <address> --password <at least ${PASSWORD_MIN_LENGTH} characters>`);
    process.exit(2);
  }
  const config = loadConfig();
  const logger = pino({ level: 'info' });
  const database = connectDatabase(config);
  try {
    await database.migrate();
    await ensureAdmin({ db: database.db, clock: systemClock, logger }, { email, password });
    console.log(`Admin ready: ${email.toLowerCase()} (an existing account keeps its password and becomes admin)`);
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});

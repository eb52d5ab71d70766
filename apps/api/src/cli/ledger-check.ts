import { ConfigError, loadConfig } from '../config';
import { connectDatabase } from '../db/client';
import { checkLedger } from '../modules/ledger/ledger.service';
import { checkProjectLedger } from '../modules/projects/invest.service';

/**
 * `npm run ledger:check`: verifies every ledger invariant against the database the server uses and exits
 * non-zero when any is broken. Stop the server first when it runs on the embedded database.
 */
async function main() {
  const config = loadConfig();
  const database = connectDatabase(config);
  try {
    await database.migrate();
    const problems = [...(await checkLedger(database.db)), ...(await checkProjectLedger(database.db))];
    if (problems.length === 0) {
      console.log(
        'ledger ok: every entry sums to zero, every balance equals its postings, no member balance is negative, ' +
          'one settlement per provider invoice, member_pack equals the active pack price, ' +
          'one payout per membership and business day and one per member, ' +
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

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});

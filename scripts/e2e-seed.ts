// Prepares the end-to-end database before the server starts: a member who joined weeks ago, with approved
// KYC, an active pack and the dividends the real payout job pays for the business days since. Journeys that
// need money to move (withdrawals, investments) start from this member instead of waiting days for a payout.
// Usage: tsx scripts/e2e-seed.ts <dataDir> <email> <password>   (prints nothing; exits non-zero on failure)
import { eq } from 'drizzle-orm';
import { connectDatabase } from '../apps/api/src/db/client';
import { memberships, users } from '../apps/api/src/db/schema';
import { newMembershipValues } from '../apps/api/src/modules/memberships';
import { runPayouts } from '../apps/api/src/modules/payouts';
import { systemClock } from '../apps/api/src/lib/clock';
import { hashPassword } from '../apps/api/src/lib/password';

async function main() {
  const [dataDir, email, password] = process.argv.slice(2);
  if (!dataDir || !email || !password) throw new Error('usage: e2e-seed <dataDir> <email> <password>');
  // The embedded database exactly where the server will open it (DATA_DIR/pglite), never DATA_DIR itself.
  const database = connectDatabase({ dataDir });
  try {
    await database.migrate();
    const joined = new Date(Date.now() - 28 * 24 * 3600 * 1000);
    const [member] = await database.db
      .insert(users)
      .values({
        email: email.toLowerCase(),
        firstName: 'Dana',
        lastName: 'Dividend',
        phone: '+1 555 010 4242',
        passwordHash: await hashPassword(password),
        emailVerifiedAt: joined,
        kycStatus: 'approved',
        kycVerified: true,
        createdAt: joined,
        updatedAt: joined,
      })
      .returning();
    await database.db.insert(memberships).values(newMembershipValues(member!.id, 'gold', joined));
    const paid = await runPayouts(database.db, { clock: systemClock, payoutTime: '00:00' });
    if (paid.paid === 0) throw new Error('the payout job paid nothing to the seeded member');
    const [check] = await database.db.select().from(users).where(eq(users.id, member!.id));
    if (!check) throw new Error('seeded member missing');
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

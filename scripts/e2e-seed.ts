// Prepares the end-to-end database before the server starts: a member who joined weeks ago, with approved
// KYC, an active pack and the dividends the real payout job pays for the business days since. Journeys that
// need money to move (withdrawals, investments) start from this member instead of waiting days for a payout.
// Also a second member whose pack payment arrived after its invoice had expired, held for an admin's review,
// as a BTCPay or NOWPayments deployment produces them (the sandbox cannot pay an expired invoice): the admin's
// held-payment panel and its decision dialog then have something to show.
// Usage: tsx scripts/e2e-seed.ts <dataDir> <email> <password>   (prints nothing; exits non-zero on failure)
import { eq } from 'drizzle-orm';
import { connectDatabase } from '../apps/api/src/db/client';
import { memberships, paymentInvoices, transactions, users } from '../apps/api/src/db/schema';
import { newMembershipValues } from '../apps/api/src/modules/memberships';
import { runPayouts } from '../apps/api/src/modules/payouts';
import { systemClock } from '../apps/api/src/lib/clock';
import { hashPassword } from '../apps/api/src/lib/password';

/** The Spanish-speaking seeded member's address: `funded-member@…` → `funded-member-es@…`. */
const spanishAddress = (email: string) => email.replace('@', '-es@');

async function main() {
  const [dataDir, email, password] = process.argv.slice(2);
  if (!dataDir || !email || !password) throw new Error('usage: e2e-seed <dataDir> <email> <password>');
  // The embedded database exactly where the server will open it (DATA_DIR/pglite), never DATA_DIR itself.
  const database = connectDatabase({ dataDir });
  try {
    await database.migrate();
    const joined = new Date(Date.now() - 28 * 24 * 3600 * 1000);
    // The same member twice: in English, and in Spanish for the journeys in Spanish (issue 35), each with a
    // balance of its own, so that neither language's journeys move the other's money or language.
    for (const [address, locale, firstName] of [
      [email, 'en', 'Dana'],
      [spanishAddress(email), 'es', 'Dolores'],
    ] as const) {
      const [member] = await database.db
        .insert(users)
        .values({
          email: address.toLowerCase(),
          locale,
          firstName,
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
    }
    const paid = await runPayouts(database.db, { clock: systemClock, payoutTime: '00:00' });
    if (paid.paid === 0) throw new Error('the payout job paid nothing to the seeded members');
    const seeded = await database.db.select().from(users).where(eq(users.lastName, 'Dividend'));
    if (seeded.length !== 2) throw new Error('seeded members missing');
    await seedHeldPayment(database.db, password);
  } finally {
    await database.close();
  }
}

/** A Gold pack paid late: its deposit failed when the invoice expired, the payment then arrived and is held. */
async function seedHeldPayment(db: ReturnType<typeof connectDatabase>['db'], password: string) {
  const opened = new Date(Date.now() - 3 * 3600 * 1000);
  const expired = new Date(opened.getTime() + 30 * 60 * 1000);
  const paid = new Date(opened.getTime() + 2 * 3600 * 1000);
  const [member] = await db
    .insert(users)
    .values({
      email: 'held.payment@example.com',
      firstName: 'Hal',
      lastName: 'Held',
      phone: '+1 555 010 4343',
      passwordHash: await hashPassword(password),
      emailVerifiedAt: opened,
      createdAt: opened,
      updatedAt: opened,
    })
    .returning();
  const [deposit] = await db
    .insert(transactions)
    .values({
      userId: member!.id,
      type: 'deposit',
      amountCents: 250_000,
      status: 'failed',
      description: 'Gold pack purchase',
      plan: 'gold',
      createdAt: opened,
      updatedAt: expired,
    })
    .returning();
  await db.insert(paymentInvoices).values({
    transactionId: deposit!.id,
    userId: member!.id,
    provider: 'sandbox',
    invoiceId: `e2e-held-${deposit!.id}`,
    pack: 'gold',
    amountCents: 250_000,
    state: 'review',
    rawStatus: 'Settled',
    reviewReason: 'late',
    paymentUrl: 'http://localhost/expired-invoice',
    expiresAt: expired,
    closedAt: paid,
    createdAt: opened,
    updatedAt: paid,
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

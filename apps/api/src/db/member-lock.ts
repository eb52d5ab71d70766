import { eq } from 'drizzle-orm';
import type { Executor } from './client';
import { users } from './schema';

/**
 * Locks a member's row for the rest of the transaction, so that one member's requests that count or change what
 * they own (money, KYC documents, data exports) are answered one at a time.
 *
 * FOR NO KEY UPDATE, not FOR UPDATE: it excludes the member's other such requests alike, but not the foreign-key
 * checks of rows that name the member (a notification, an audit row), which an admin's decision writes while it
 * holds the member's ledger accounts; FOR UPDATE made the two wait on each other, and PostgreSQL ended one of them
 * as a deadlock (40P01), a 500 (the kill-money fault test).
 */
export async function lockMember(tx: Executor, userId: string): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update');
}

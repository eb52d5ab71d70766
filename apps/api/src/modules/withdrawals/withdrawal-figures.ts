import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client';

/**
 * Which transactions are withdrawals still pending (waiting for a decision or for the provider): the one rule, for
 * the admin statistics and /metrics alike. A condition on the `transactions` row.
 */
export const PENDING_WITHDRAWAL = sql`type = 'withdrawal' and status = 'pending'`;

/** The pending withdrawals: how many, and the amount they hold in cents (a scan of transactions). */
export async function pendingWithdrawals(db: Executor): Promise<{ count: number; cents: number }> {
  const [row] = await queryRows<{ count: string; cents: string }>(
    db,
    sql`select count(*)::text as count, coalesce(sum(amount_cents), 0)::text as cents from transactions where ${PENDING_WITHDRAWAL}`,
  );
  return { count: Number(row?.count ?? 0), cents: Math.abs(Number(row?.cents ?? 0)) };
}

import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from './client';

/** A queue table worked by several workers or servers: pending rows, due at `nextAttemptAt`, leased by `lockedUntil`. */
type LeasedQueue = PgTable & {
  id: PgColumn;
  status: PgColumn;
  nextAttemptAt: PgColumn;
  lockedUntil: PgColumn;
  createdAt: PgColumn;
  attempts: PgColumn;
};

/**
 * Leases up to `limit` pending rows that are due, oldest first, with FOR UPDATE SKIP LOCKED: two workers never take
 * the same row, and a lease that ran out (a killed worker) is taken again. Each leased row counts one more attempt.
 */
export async function leaseDue<T extends LeasedQueue>(
  tx: Executor,
  table: T,
  lease: { now: Date; until: Date; limit: number },
): Promise<T['$inferSelect'][]> {
  const due = await tx
    .select({ id: table.id })
    .from(table as PgTable)
    .where(
      and(
        eq(table.status, 'pending'),
        lte(table.nextAttemptAt, lease.now),
        or(isNull(table.lockedUntil), lt(table.lockedUntil, lease.now)),
      ),
    )
    .orderBy(asc(table.createdAt))
    .limit(lease.limit)
    .for('update', { skipLocked: true });
  if (due.length === 0) return [];
  return (await tx
    .update(table as PgTable)
    .set({ lockedUntil: lease.until, attempts: sql`${table.attempts} + 1` })
    .where(inArray(table.id, due.map((d) => d.id)))
    .returning()) as T['$inferSelect'][];
}

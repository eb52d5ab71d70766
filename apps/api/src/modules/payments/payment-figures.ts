import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client';

/** How many provider invoices settled (each activated a pack), by provider: for /metrics (plugins/metrics.ts). */
export async function settledInvoicesByProvider(db: Executor): Promise<{ provider: string; count: number }[]> {
  const rows = await queryRows<{ provider: string; count: string }>(
    db,
    sql`select provider, count(*)::text as count from payment_invoices where state = 'settled' group by provider`,
  );
  return rows.map((r) => ({ provider: r.provider, count: Number(r.count) }));
}

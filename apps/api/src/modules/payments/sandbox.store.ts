import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { sandboxInvoices } from '../../db/schema';
import type { SandboxInvoice, SandboxStore } from './sandbox.provider';

type SandboxRow = typeof sandboxInvoices.$inferSelect;

const toInvoice = (row: SandboxRow): SandboxInvoice => ({
  id: row.id,
  orderId: row.orderId,
  amountCents: row.amountCents,
  currency: 'USD',
  description: row.description,
  returnUrl: row.returnUrl,
  status: row.status,
  createdAt: row.createdAt,
  expiresAt: row.expiresAt,
  ...(row.closedAt ? { closedAt: row.closedAt } : {}),
});

/**
 * The sandbox's invoices in the database (sandbox_invoices), so they survive a restart and every server
 * sees the same ones. `update` is one conditional UPDATE: of two clicks on Pay, or Pay racing the expiry on
 * another server, exactly one finds the invoice still `New`.
 */
export function dbSandboxStore(db: Database): SandboxStore {
  return {
    async save(invoice) {
      await db.insert(sandboxInvoices).values({
        id: invoice.id,
        orderId: invoice.orderId,
        amountCents: invoice.amountCents,
        currency: invoice.currency,
        description: invoice.description,
        returnUrl: invoice.returnUrl,
        status: invoice.status,
        createdAt: invoice.createdAt,
        expiresAt: invoice.expiresAt,
        closedAt: invoice.closedAt ?? null,
      });
    },
    async get(id) {
      const [row] = await db.select().from(sandboxInvoices).where(eq(sandboxInvoices.id, id));
      return row && toInvoice(row);
    },
    async update(id, from, change) {
      const [row] = await db
        .update(sandboxInvoices)
        .set({ status: change.status, closedAt: change.closedAt ?? null })
        .where(and(eq(sandboxInvoices.id, id), eq(sandboxInvoices.status, from)))
        .returning();
      return row && toInvoice(row);
    },
  };
}

import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/test-app';
import type { SandboxInvoice } from './sandbox.provider';
import { dbSandboxStore } from './sandbox.store';

describe('the sandbox store in the database', () => {
  const ctx = useTestApp();

  let sequence = 0;
  const invoice = (): SandboxInvoice => ({
    id: `store-test-invoice-${(sequence += 1)}`,
    orderId: crypto.randomUUID(),
    amountCents: 250_000,
    currency: 'USD',
    description: 'Gold pack purchase',
    returnUrl: 'https://app.terrafund.test/api/payments/return/sandbox?orderId=x',
    status: 'New',
    createdAt: new Date('2026-01-05T12:00:00Z'),
    expiresAt: new Date('2026-01-05T12:30:00Z'),
  });

  it('keeps an invoice as it was saved, and knows nothing of other ids', async () => {
    const store = dbSandboxStore(ctx.database.db);
    const saved = invoice();
    await store.save(saved);
    expect(await store.get(saved.id)).toEqual(saved);
    expect(await store.get('no-such-invoice')).toBeUndefined();
  });

  it('closes an invoice only from the status it was read in', async () => {
    const store = dbSandboxStore(ctx.database.db);
    const saved = invoice();
    await store.save(saved);
    const closedAt = new Date('2026-01-05T12:10:00Z');
    expect(await store.update(saved.id, 'New', { status: 'Settled', closedAt })).toEqual({ ...saved, status: 'Settled', closedAt });
    expect(await store.update(saved.id, 'New', { status: 'Expired', closedAt })).toBeUndefined();
    expect(await store.update('no-such-invoice', 'New', { status: 'Expired', closedAt })).toBeUndefined();
    expect((await store.get(saved.id))?.status).toBe('Settled');
  });

  it('lets exactly one of 20 simultaneous closes through', async () => {
    const store = dbSandboxStore(ctx.database.db);
    const saved = invoice();
    await store.save(saved);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.update(saved.id, 'New', { status: i % 2 ? 'Settled' : 'Expired', closedAt: new Date() })),
    );
    const winners = results.filter((r) => r !== undefined);
    expect(winners).toHaveLength(1);
    expect((await store.get(saved.id))?.status).toBe(winners[0]!.status);
  });
});

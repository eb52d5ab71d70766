import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { startFakeBtcpay } from '../../../test/fake-http-server';
import { startDeposit, testAppAt } from '../../../test/memberships';
import { settlementOf, useProviderDeposits } from '../../../test/provider-deposits';
import { createUser, type TestContext } from '../../../test/test-app';
import { paymentInvoices, sandboxInvoices, transactions } from '../../db/schema';
import { checkLedger } from '../reports';
import { isSandboxProvider } from './configured-provider';
import { GRACE_MS, reconcilePayments, RECHECK_MS } from './reconciliation.service';

async function stateOf(ctx: TestContext, transactionId: string) {
  const settlement = await settlementOf(ctx, transactionId);
  return { deposit: settlement.status, invoice: settlement.invoice?.state, memberships: settlement.memberships, entries: settlement.entries };
}

describe('payment reconciliation with BTCPay', () => {
  const { ctx, fake: btcpay } = useProviderDeposits({ provider: 'btcpay', startFake: startFakeBtcpay, invoiceIdOf: (url) => url.split('/').pop()! });

  const reads = (invoiceId: string) => btcpay.requests.filter((r) => r.method === 'GET' && r.path.endsWith(`/invoices/${invoiceId}`)).length;
  /** Moves past every invoice's recheck interval, so the next run looks at all of them. */
  const later = (ms = RECHECK_MS + 1) => ctx.clock.advance(ms);

  it('settles a paid invoice whose notification was lost, once, and mails the member', async () => {
    const { user, transactionId, invoiceId } = await startDeposit(ctx, 'gold');
    btcpay.set(invoiceId, { status: 'Settled' });
    later();
    const result = await reconcilePayments(ctx.app.deps);
    expect(result.outcomes.settled).toBeGreaterThanOrEqual(1);
    expect(await stateOf(ctx, transactionId)).toEqual({ deposit: 'completed', invoice: 'settled', memberships: 1, entries: 1 });
    expect((await ctx.deliverMail()).filter((m) => m.to === user.email).map((m) => m.subject)).toEqual(['Your Gold pack is active | Terrafund']);

    later();
    await reconcilePayments(ctx.app.deps);
    expect(reads(invoiceId)).toBe(1);
    expect(await stateOf(ctx, transactionId)).toMatchObject({ memberships: 1, entries: 1 });
  });

  it('asks about an invoice at most once per interval, even with two runs at once', async () => {
    const { transactionId, invoiceId } = await startDeposit(ctx, 'startium');
    later();
    const [a, b] = await Promise.all([reconcilePayments(ctx.app.deps), reconcilePayments(ctx.app.deps)]);
    expect(reads(invoiceId)).toBe(1);
    expect(a.checked + b.checked).toBeGreaterThanOrEqual(1);
    await reconcilePayments(ctx.app.deps);
    expect(reads(invoiceId)).toBe(1);

    btcpay.set(invoiceId, { status: 'Settled' });
    later();
    await Promise.all([reconcilePayments(ctx.app.deps), reconcilePayments(ctx.app.deps), reconcilePayments(ctx.app.deps)]);
    expect(reads(invoiceId)).toBe(2);
    expect(await stateOf(ctx, transactionId)).toEqual({ deposit: 'completed', invoice: 'settled', memberships: 1, entries: 1 });
  });

  it('times out an unpaid invoice only after its expiry plus the grace, and never one being confirmed', async () => {
    const unpaid = await startDeposit(ctx, 'gold');
    const confirming = await startDeposit(ctx, 'gold');
    btcpay.set(confirming.invoiceId, { status: 'Processing' });
    const [row] = await ctx.database.db.select().from(paymentInvoices).where(eq(paymentInvoices.transactionId, unpaid.transactionId));
    const untilDue = row!.expiresAt!.getTime() + GRACE_MS - ctx.clock.now().getTime();

    ctx.clock.advance(untilDue - 60_000);
    await reconcilePayments(ctx.app.deps);
    expect(await stateOf(ctx, unpaid.transactionId)).toMatchObject({ deposit: 'pending', invoice: 'pending' });

    later(2 * 60_000);
    await reconcilePayments(ctx.app.deps);
    expect(await stateOf(ctx, unpaid.transactionId)).toEqual({ deposit: 'failed', invoice: 'expired', memberships: 0, entries: 0 });
    expect(await stateOf(ctx, confirming.transactionId)).toMatchObject({ deposit: 'pending', invoice: 'pending' });

    // Paid in time but confirmed late: it still settles.
    btcpay.set(confirming.invoiceId, { status: 'Settled' });
    later();
    await reconcilePayments(ctx.app.deps);
    expect(await stateOf(ctx, confirming.transactionId)).toEqual({ deposit: 'completed', invoice: 'settled', memberships: 1, entries: 1 });
  });

  it('leaves invoices alone while BTCPay is down, and settles them once it answers', async () => {
    const { transactionId, invoiceId } = await startDeposit(ctx, 'ultimium');
    btcpay.set(invoiceId, { status: 'Settled' });
    btcpay.down();
    later();
    const failed = await reconcilePayments(ctx.app.deps);
    expect(failed.errors).toBeGreaterThanOrEqual(1);
    expect(await stateOf(ctx, transactionId)).toMatchObject({ deposit: 'pending', invoice: 'pending' });

    btcpay.up();
    later();
    await reconcilePayments(ctx.app.deps);
    expect(await stateOf(ctx, transactionId)).toMatchObject({ deposit: 'completed', invoice: 'settled' });
  });

  it('fails a deposit whose invoice was never recorded, once it is clearly abandoned', async () => {
    const user = await createUser(ctx);
    const insert = async () => {
      const now = ctx.clock.now();
      const [row] = await ctx.database.db
        .insert(transactions)
        .values({ userId: user.id, type: 'deposit', amountCents: 70_000, status: 'pending', description: 'Startium pack purchase', plan: 'startium', createdAt: now, updatedAt: now })
        .returning();
      return row!.id;
    };
    const abandoned = await insert();
    later(11 * 60_000);
    const recent = await insert();
    const result = await reconcilePayments(ctx.app.deps);
    expect(result.abandoned).toBe(1);
    expect((await stateOf(ctx, abandoned)).deposit).toBe('failed');
    expect((await stateOf(ctx, recent)).deposit).toBe('pending');
    later(11 * 60_000);
    await reconcilePayments(ctx.app.deps);
    expect((await stateOf(ctx, recent)).deposit).toBe('failed');
  });
});

describe('payment reconciliation with the sandbox', () => {
  const context = testAppAt();

  it('expires an overdue sandbox invoice through the sandbox, and settles one paid without a delivered notification', async () => {
    const ctx = context();
    const overdue = await startDeposit(ctx, 'gold');
    const paid = await startDeposit(ctx, 'startium');
    const sandbox = ctx.app.deps.paymentProvider;
    if (!isSandboxProvider(sandbox)) throw new Error('the test app runs the sandbox');
    await sandbox.pay(paid.invoiceId); // the notification it answers is never delivered

    ctx.clock.advance(RECHECK_MS + 1);
    await reconcilePayments(ctx.app.deps);
    expect(await stateOf(ctx, paid.transactionId)).toEqual({ deposit: 'completed', invoice: 'settled', memberships: 1, entries: 1 });
    expect(await stateOf(ctx, overdue.transactionId)).toMatchObject({ deposit: 'pending', invoice: 'pending' });

    ctx.clock.advance(30 * 60_000);
    await reconcilePayments(ctx.app.deps);
    expect(await stateOf(ctx, overdue.transactionId)).toEqual({ deposit: 'failed', invoice: 'expired', memberships: 0, entries: 0 });
    const [closed] = await ctx.database.db.select().from(sandboxInvoices).where(eq(sandboxInvoices.id, overdue.invoiceId));
    expect(closed!.status).toBe('Expired');
    expect(await checkLedger(ctx.database.db)).toEqual([]);
  });
});

import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { startDeposit, testAppAt } from '../../test/memberships';
import { paymentInvoices } from '../db/schema';
import { isSandboxProvider, RECHECK_MS } from '../modules/payments';
import { startPaymentReconciler } from './payment-reconciler';

describe('the payment reconciler', () => {
  const context = testAppAt('2026-01-05T12:00:00Z');

  it('runs at start and every interval in the server, and stops cleanly', async () => {
    const ctx = context();
    const { transactionId, invoiceId } = await startDeposit(ctx, 'gold');
    const sandbox = ctx.app.deps.paymentProvider;
    if (!isSandboxProvider(sandbox)) throw new Error('the test app runs the sandbox');
    await sandbox.pay(invoiceId); // the notification it answers is never delivered: only the reconciler settles it
    ctx.clock.advance(RECHECK_MS + 1);
    const job = startPaymentReconciler(ctx.app.deps, { intervalMs: 50 });
    const invoiceState = async () =>
      (await ctx.database.db.select().from(paymentInvoices).where(eq(paymentInvoices.transactionId, transactionId)))[0]?.state;
    await expect.poll(invoiceState, { timeout: 10_000 }).toBe('settled');
    await job.stop();
  });
});

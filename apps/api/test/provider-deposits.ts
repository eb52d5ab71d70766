import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { memberships, paymentInvoices, paymentNotifications, transactions } from '../src/db/schema';
import { checkLedger } from '../src/modules/reports';
import type { FakeDelivery } from './fake-http-server';
import { startDeposit } from './memberships';
import { createTestApp, rows, testPayments, type TestContext } from './test-app';

type FakeProvider = { url: string; up(): void; close(): Promise<void> };

/**
 * Deposits through a real provider's API, against its fake on 127.0.0.1, for the enclosing `describe`: the test
 * app, the fake (both returned at once and filled in by `beforeAll`), and the steps every scenario takes. After
 * each test the fake answers again and the ledger's invariants hold, whatever the scenario did.
 */
export function useProviderDeposits<F extends FakeProvider>(options: {
  provider: 'btcpay' | 'nowpayments';
  startFake: () => Promise<F>;
  /** The provider's invoice id in the payment page's address. */
  invoiceIdOf: (paymentUrl: string) => string;
}) {
  const fake = {} as F;
  const ctx = {} as TestContext;
  beforeAll(async () => {
    Object.assign(fake, await options.startFake());
    Object.assign(ctx, await createTestApp({ config: { payments: testPayments[options.provider](fake.url) } }));
  });
  afterAll(async () => {
    await ctx.close();
    await fake.close();
  });
  afterEach(async () => {
    fake.up();
    expect(await checkLedger(ctx.database.db)).toEqual([]);
  });
  const notify = (delivery: FakeDelivery) =>
    ctx.app.inject({ method: 'POST', url: `/api/payments/webhooks/${options.provider}`, headers: delivery.headers, payload: delivery.body });
  return {
    ctx,
    fake,
    db: () => ctx.database.db,
    startDeposit: async (plan = 'gold') => {
      const deposit = await startDeposit(ctx, plan);
      return { ...deposit, invoiceId: options.invoiceIdOf(deposit.paymentUrl) };
    },
    notify,
    settlementOf: (transactionId: string) => settlementOf(ctx, transactionId),
    /**
     * After an outage that made `delivery` fail: nothing was recorded for the deposit; once the fake answers
     * again, the same delivery settles it once.
     */
    async expectRetrySettles({ transactionId, invoiceId }: { transactionId: string; invoiceId: string }, delivery: FakeDelivery) {
      const db = ctx.database.db;
      expect(await db.select().from(paymentNotifications).where(eq(paymentNotifications.invoiceId, invoiceId))).toEqual([]);
      expect(await settlementOf(ctx, transactionId)).toMatchObject(notSettled);
      fake.up();
      expect((await notify(delivery)).statusCode).toBe(200);
      expect(await settlementOf(ctx, transactionId)).toMatchObject(settledOnce);
    },
  };
}

/** A new member asks for a pack: their deposit's id and the provider's payment page. */
/** Everything a settlement writes for one deposit. */
export async function settlementOf(ctx: TestContext, transactionId: string) {
  const db = ctx.database.db;
  const [deposit] = await db.select().from(transactions).where(eq(transactions.id, transactionId));
  const [invoice] = await db.select().from(paymentInvoices).where(eq(paymentInvoices.transactionId, transactionId));
  const [entries] = await rows<{ count: number }>(ctx, sql`select count(*)::int as count from journal_entries where idempotency_key = ${`deposit:${transactionId}`}`);
  const packs = await db.select().from(memberships).where(eq(memberships.depositTransactionId, transactionId));
  return { status: deposit!.status, invoice: invoice!, entries: entries!.count, memberships: packs.length };
}
export const notSettled = { status: 'pending', entries: 0, memberships: 0 };
export const settledOnce = { status: 'completed', entries: 1, memberships: 1 };

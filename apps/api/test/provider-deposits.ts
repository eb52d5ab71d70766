import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { PaymentSettings } from '../src/config';
import { memberships, paymentInvoices, transactions } from '../src/db/schema';
import { checkLedger } from '../src/modules/ledger/ledger.service';
import type { FakeDelivery } from './fake-http-server';
import { bearer, createTestApp, createUser, loginAs, rows, type TestContext } from './test-app';

type FakeProvider = { url: string; up(): void; close(): Promise<void> };

/**
 * A test app paying through a fake provider server started for it, for the enclosing `describe`. After each
 * test the fake answers again and the ledger's invariants hold, whatever the scenario did. Both objects are
 * returned at once and filled in by `beforeAll`.
 */
export function useFakeProviderApp<F extends FakeProvider>(startFake: () => Promise<F>, payments: (url: string) => PaymentSettings) {
  const fake = {} as F;
  const ctx = {} as TestContext;
  beforeAll(async () => {
    Object.assign(fake, await startFake());
    Object.assign(ctx, await createTestApp({ config: { payments: payments(fake.url) } }));
  });
  afterAll(async () => {
    await ctx.close();
    await fake.close();
  });
  afterEach(async () => {
    fake.up();
    expect(await checkLedger(ctx.database.db)).toEqual([]);
  });
  return { ctx, fake };
}

/** A new member asks for a pack: their deposit's id and the provider's payment page. */
export async function requestDeposit(ctx: TestContext, plan: string) {
  const user = await createUser(ctx);
  const token = await loginAs(ctx, user.email);
  const response = await ctx.app.inject({ method: 'POST', url: '/api/transactions', headers: bearer(token), payload: { type: 'deposit', plan } });
  expect(response.statusCode, response.body).toBe(201);
  const { transaction, payment_url } = response.json<{ transaction: { _id: string }; payment_url: string }>();
  return { user, token, transactionId: transaction._id, paymentUrl: payment_url };
}

/** A provider's notification delivered to our webhook. */
export const deliverWebhook = (ctx: TestContext, provider: 'btcpay' | 'nowpayments', delivery: FakeDelivery) =>
  ctx.app.inject({ method: 'POST', url: `/api/payments/webhooks/${provider}`, headers: delivery.headers, payload: delivery.body });

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

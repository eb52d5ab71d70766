import { afterAll, beforeAll, expect } from 'vitest';
import type { PackId } from '@terrafund/contracts';
import { memberships } from '../src/db/schema';
import { fixedClock } from '../src/lib/clock';
import { isBusinessDay, newMembershipValues } from '../src/modules/memberships';
import { checkoutOf } from './sandbox-checkout';
import { apiCaller, createTestApp, createUser, loginAs, type TestContext } from './test-app';

/**
 * A test app shared by the tests of the describe block this is called in: created before them with the clock
 * at `now` (the real time by default), closed after them. Answers the context (read it inside a test or a hook).
 */
export function testAppAt(now?: string): () => TestContext {
  let ctx: TestContext | undefined;
  beforeAll(async () => {
    ctx = await createTestApp({ clock: fixedClock(now ?? new Date()) });
  });
  afterAll(() => ctx?.close());
  return () => {
    if (!ctx) throw new Error('the test app is made in beforeAll: read it inside a test');
    return ctx;
  };
}

/** Inserts a membership of `pack` activated at `startedAt` (3 years, priced from the pack list) for `userId`. */
export async function insertMembership(
  ctx: TestContext,
  userId: string,
  pack: PackId,
  startedAt: string | Date,
  overrides: Partial<typeof memberships.$inferInsert> = {},
) {
  const [row] = await ctx.database.db
    .insert(memberships)
    .values({ ...newMembershipValues(userId, pack, new Date(startedAt)), ...overrides })
    .returning();
  return row!;
}

/** A new member with a membership of `pack` activated at `startedAt`. */
export async function createMember(ctx: TestContext, pack: PackId, startedAt: string, overrides: Partial<typeof memberships.$inferInsert> = {}) {
  const user = await createUser(ctx);
  return { user, membership: await insertMembership(ctx, user.id, pack, startedAt, overrides) };
}

/** Starts buying `plan` as the member signed in with `token`: the pending deposit, its invoice and checkout address. */
async function depositAs(ctx: TestContext, token: string, plan: string) {
  const started = await apiCaller(() => ctx)('POST', '/transactions', token, { type: 'deposit', plan });
  expect(started.statusCode, started.body).toBe(201);
  const { transaction, payment_url } = started.json<{ transaction: { _id: string }; payment_url: string }>();
  return { transactionId: transaction._id, paymentUrl: payment_url, invoiceId: decodeURIComponent(new URL(payment_url).pathname.split('/').pop()!) };
}

/** A new member (signed in with `token`) who has started buying `plan`: the deposit is pending, its invoice open at the provider. */
export async function startDeposit(ctx: TestContext, plan = 'gold') {
  const user = await createUser(ctx);
  const token = await loginAs(ctx, user.email);
  return { user, token, ...(await depositAs(ctx, token, plan)) };
}

/** Buys `plan` as the member signed in with `token`: a deposit, paid at the sandbox checkout. */
export async function buyPack(ctx: TestContext, token: string, plan: string) {
  const { paymentUrl } = await depositAs(ctx, token, plan);
  const checkout = await checkoutOf(ctx.app, paymentUrl);
  expect((await checkout.press('pay')).statusCode).toBe(303);
}

const DAY_MS = 86_400_000;

/** Business days from `from` to `to`, both included (YYYY-MM-DD). */
export function businessDaysBetween(from: string, to: string): number {
  let count = 0;
  for (let ms = Date.parse(`${from}T00:00:00Z`); ms <= Date.parse(`${to}T00:00:00Z`); ms += DAY_MS) {
    if (isBusinessDay(new Date(ms).toISOString().slice(0, 10))) count += 1;
  }
  return count;
}

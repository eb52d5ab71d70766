import { eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { transactions } from '../../db/schema';
import { createUser, useTestApp, type TestContext } from '../../../test/test-app';
import { foldTransactionTotals } from './transaction-totals';

type Bucket = { day: string; type: string; status: string; count: string; amount: string };

/** Per day, type and status: what the triggers kept, against counting the rows themselves. */
async function kept(ctx: TestContext) {
  return queryRows<Bucket>(
    ctx.database.db,
    sql`select day::text, type, status, sum(count)::text as count, sum(amount_cents)::text as amount
        from transaction_totals group by 1, 2, 3 having sum(count) <> 0 or sum(amount_cents) <> 0 order by 1, 2, 3`,
  );
}
async function counted(ctx: TestContext) {
  return queryRows<Bucket>(
    ctx.database.db,
    sql`select (created_at at time zone 'UTC')::date::text as day, type, status, count(*)::text as count, sum(amount_cents)::text as amount
        from transactions group by 1, 2, 3 order by 1, 2, 3`,
  );
}
const rowCount = async (ctx: TestContext) =>
  Number((await queryRows<{ n: string }>(ctx.database.db, sql`select count(*)::text as n from transaction_totals`))[0]!.n);

describe('transaction_totals (kept by triggers for the admin figures)', () => {
  const ctx = useTestApp();
  let userId: string;
  beforeAll(async () => {
    userId = (await createUser(ctx)).id;
  });

  const row = (type: 'deposit' | 'withdrawal' | 'payout', status: 'pending' | 'completed' | 'failed', amountCents: number, at: string) => ({
    userId,
    type,
    status,
    amountCents,
    description: `${type} ${amountCents}`,
    plan: type === 'deposit' ? 'startium' : null,
    createdAt: new Date(at),
    updatedAt: new Date(at),
  });

  it('follows inserts, status changes and deletions, per UTC day, whatever the statements', async () => {
    const db = ctx.database.db;
    // One statement across days and buckets, then single rows; 23:59:59.999 and 00:00 fall on different days.
    await db.insert(transactions).values([
      row('payout', 'completed', 300, '2026-03-02T23:59:59.999Z'),
      row('payout', 'completed', 500, '2026-03-03T00:00:00.000Z'),
      row('payout', 'completed', 700, '2026-03-03T09:00:00.000Z'),
      row('deposit', 'pending', 70_000, '2026-03-03T10:00:00.000Z'),
      row('withdrawal', 'pending', 2_500, '2026-03-03T11:00:00.000Z'),
    ]);
    const [single] = await db.insert(transactions).values(row('deposit', 'pending', 120_000, '2026-03-04T08:00:00.000Z')).returning();
    expect(await kept(ctx)).toEqual(await counted(ctx));

    // A pending deposit settles, a withdrawal fails: their amounts move between buckets of their own day.
    await db.update(transactions).set({ status: 'completed' }).where(eq(transactions.type, 'deposit'));
    await db.update(transactions).set({ status: 'failed' }).where(eq(transactions.type, 'withdrawal'));
    expect(await kept(ctx)).toEqual(await counted(ctx));

    // An update that moves no amount between buckets (as setting entry_id) appends nothing.
    const before = await rowCount(ctx);
    await db.update(transactions).set({ description: 'renamed' }).where(eq(transactions.id, single!.id));
    expect(await rowCount(ctx)).toBe(before);

    await db.delete(transactions).where(inArray(transactions.amountCents, [300, 120_000]));
    expect(await kept(ctx)).toEqual(await counted(ctx));
  });

  it('folds each bucket into one row with the same sums, dropping buckets that sum to nothing', async () => {
    const expected = await counted(ctx);
    await foldTransactionTotals(ctx.database.db);
    expect(await kept(ctx)).toEqual(expected);
    expect(await rowCount(ctx)).toBe(expected.length);
    // Folding again changes nothing.
    await foldTransactionTotals(ctx.database.db);
    expect(await rowCount(ctx)).toBe(expected.length);
    expect(await kept(ctx)).toEqual(expected);
  });

  it('starts over with the table when it is truncated', async () => {
    await ctx.database.db.execute(sql`truncate transactions cascade`);
    expect(await rowCount(ctx)).toBe(0);
  });

  it.runIf(process.env.TEST_DB === 'postgres')('lets two transactions write the same bucket at once, neither waiting for the other', async () => {
    const db = ctx.database.db;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let firstInserted!: () => void;
    const inserted = new Promise<void>((resolve) => (firstInserted = resolve));
    // The first keeps its transaction open after writing the bucket; the second writes the same bucket and
    // must commit before the first does (an upsert on a shared row would make it wait, and could deadlock).
    const first = db.transaction(async (tx) => {
      await tx.insert(transactions).values(row('withdrawal', 'pending', 4_000, '2026-04-01T10:00:00.000Z'));
      firstInserted();
      await held;
    });
    await inserted;
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local lock_timeout = '2s'`);
      await tx.insert(transactions).values(row('withdrawal', 'pending', 6_000, '2026-04-01T12:00:00.000Z'));
    });
    release();
    await first;
    expect(await kept(ctx)).toEqual(await counted(ctx));
  });
});

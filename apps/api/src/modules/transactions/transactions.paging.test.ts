import { beforeAll, describe, expect, it } from 'vitest';
import { messages, type Transaction } from '@terrafund/contracts';
import { transactions } from '../../db/schema';
import { bearer, createUser, loginAs, useTestApp } from '../../../test/test-app';
import { encodeCursor } from '../../lib/cursor';

/** GET /api/transactions pages: every transaction of the caller is reachable, newest first, and only theirs. */
describe('GET /api/transactions paging', () => {
  const ctx = useTestApp();
  let token: string;
  let mine: string[];
  let othersIds: string[];

  beforeAll(async () => {
    const member = await createUser(ctx);
    const other = await createUser(ctx);
    token = await loginAs(ctx, member.email);
    const base = Date.UTC(2026, 0, 5, 12);
    // 230 dividends, one a minute, and 30 more written in the very same instant: a cursor must neither skip
    // nor repeat rows that share a timestamp.
    const rows = [
      ...Array.from({ length: 230 }, (_, i) => new Date(base + i * 60_000)),
      ...Array.from({ length: 30 }, () => new Date(base + 500 * 60_000)),
    ].map((at, i) => ({
      userId: member.id,
      type: 'payout' as const,
      amountCents: 100 + i,
      status: 'completed' as const,
      description: `Dividend ${i}`,
      createdAt: at,
      updatedAt: at,
    }));
    const inserted = await ctx.database.db.insert(transactions).values(rows).returning();
    mine = inserted.map((row) => row.id);
    const others = await ctx.database.db
      .insert(transactions)
      .values(Array.from({ length: 3 }, (_, i) => ({ ...rows[i]!, userId: other.id, description: `Other ${i}` })))
      .returning();
    othersIds = others.map((row) => row.id);
  });

  const get = (query = '', auth = bearer(token)) => ctx.app.inject({ method: 'GET', url: `/api/transactions${query}`, headers: auth });

  it('answers 50 by default, newest first, with the next cursor in X-Next-Cursor', async () => {
    const first = await get();
    expect(first.statusCode).toBe(200);
    const page = first.json<Transaction[]>();
    expect(page).toHaveLength(50);
    const dates = page.map((t) => Date.parse(t.createdAt));
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);
    expect(first.headers['x-next-cursor']).toEqual(expect.any(String));
    // The same transaction shape as a single transaction read alone.
    const one = await get(`/${page[0]!._id}`);
    expect(Object.keys(page[0]!).sort()).toEqual(Object.keys(one.json()).sort());
  });

  it('reaches every one of 260 transactions by following the cursor, 100 a page, and no one else’s', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const response = await get(`?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(response.statusCode).toBe(200);
      const page = response.json<Transaction[]>();
      pages += 1;
      seen.push(...page.map((t) => t._id));
      cursor = response.headers['x-next-cursor'] as string | undefined;
      if (cursor === undefined) expect(page.length).toBeLessThanOrEqual(100);
      else expect(page).toHaveLength(100);
    } while (cursor !== undefined && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(260);
    expect(new Set(seen).size).toBe(260);
    expect([...seen].sort()).toEqual([...mine].sort());
    for (const id of othersIds) expect(seen).not.toContain(id);
  });

  it('leaves X-Next-Cursor out on the last page', async () => {
    const all = await get('?limit=100');
    const second = await get(`?limit=100&cursor=${all.headers['x-next-cursor'] as string}`);
    const third = await get(`?limit=100&cursor=${second.headers['x-next-cursor'] as string}`);
    expect(third.json()).toHaveLength(60);
    expect(third.headers).not.toHaveProperty('x-next-cursor');
  });

  it('refuses a limit above 100, below 1 or not a whole number with a clear 400', async () => {
    for (const limit of ['101', '0', '-1', '2.5', 'many']) {
      const response = await get(`?limit=${limit}`);
      expect(response.statusCode, limit).toBe(400);
      expect(response.json().message, limit).toBe(messages.wallet.limitInvalid);
    }
    expect((await get('?limit=100')).statusCode).toBe(200);
  });

  it('answers 400 "Invalid page cursor" to a forged or garbled cursor, never 500', async () => {
    const forged = [
      'garbage!',
      'bm90LWEtY3Vyc29y', // base64url of "not-a-cursor"
      Buffer.from('2026-13-40T25:00:00.000000Z|00000000-0000-0000-0000-000000000000').toString('base64url'),
      Buffer.from("2026-01-05T12:00:00.000000Z|x' or 1=1 --").toString('base64url'),
      'A'.repeat(201),
    ];
    for (const cursor of forged) {
      const response = await get(`?cursor=${encodeURIComponent(cursor)}`);
      expect(response.statusCode, cursor).toBe(400);
      expect(response.json().message, cursor).toBe(messages.admin.cursorInvalid);
    }
    // A well-formed cursor still only ever shows the caller's own rows.
    const farFuture = encodeCursor({ createdAt: '2999-01-01T00:00:00.000000Z', id: 'ffffffff-ffff-4fff-bfff-ffffffffffff' });
    const response = await get(`?limit=100&cursor=${farFuture}`);
    expect(response.statusCode).toBe(200);
    for (const t of response.json<Transaction[]>()) expect(othersIds).not.toContain(t._id);
  });

  it('takes an empty cursor as the first page', async () => {
    const first = await get('?limit=5');
    const empty = await get('?limit=5&cursor=');
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual(first.json());
  });

  it('answers 401 without a session', async () => {
    expect((await get('', {} as ReturnType<typeof bearer>)).statusCode).toBe(401);
  });
});

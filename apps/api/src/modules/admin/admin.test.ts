import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TRANSACTIONS_PAGE_SIZE, messages, type AdminTransaction } from '@terrafund/contracts';
import { buildApp, type App } from '../../app';
import { kycProfiles, projects, transactions } from '../../db/schema';
import { fixedClock } from '../../lib/clock';
import {
  bearer,
  createMemberAndAdmin,
  createTestApp,
  createUser,
  loginAs,
  rows,
  testConfig,
  uniqueEmail,
  useTestApp,
  type TestContext,
} from '../../../test/test-app';
import { dashboardStats } from './admin-stats.service';
import { pageQuery } from './admin-transactions.service';
import { decodeCursor, encodeCursor } from '../../lib/cursor';
import { PageBookmarks } from './page-bookmarks';

const PAGE = ADMIN_TRANSACTIONS_PAGE_SIZE;
const DAY = 86_400_000;

type Seeded = Awaited<ReturnType<typeof createUser>>;
type TxInput = { user: Seeded; type: 'deposit' | 'withdrawal' | 'payout' | 'investment'; status: 'pending' | 'completed' | 'failed'; cents: number; at: string; projectId?: string };

/** Inserts transactions directly: these tests read figures and lists, they move no money. */
async function insertTransactions(ctx: TestContext, list: TxInput[]) {
  const inserted = await ctx.database.db
    .insert(transactions)
    .values(
      list.map((t) => ({
        userId: t.user.id,
        type: t.type,
        status: t.status,
        amountCents: t.cents,
        description: `${t.type} ${t.cents}`,
        projectId: t.type === 'investment' ? t.projectId : null,
        createdAt: new Date(t.at),
        updatedAt: new Date(t.at),
      })),
    )
    .returning({ id: transactions.id });
  return inserted.map((r) => r.id);
}

async function insertProject(ctx: TestContext, ownerId: string) {
  const now = ctx.clock.now();
  const [row] = await ctx.database.db
    .insert(projects)
    .values({
      ownerId,
      title: 'Harbour Lofts',
      description: 'Twelve lofts by the water',
      location: 'Jersey City, NJ',
      type: 'residential',
      targetCents: 100_000_000,
      roiBasisPoints: 850,
      termMonths: 24,
      minInvestmentCents: 10_000,
      details: { features: [], propertyType: 'Lofts', size: '1,200 m²', units: 12, yearBuilt: 2020, occupancyRate: 90, paymentSchedule: 'monthly', documents: [] },
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: projects.id });
  return row!.id;
}

async function insertKycReview(ctx: TestContext, user: Seeded, reviewedAt: string) {
  await ctx.database.db.insert(kycProfiles).values({
    userId: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    dateOfBirth: '1990-01-01',
    nationality: 'US',
    address: '1 Main St',
    city: 'Newark',
    postalCode: '07102',
    country: 'US',
    idType: 'passport',
    idNumber: 'X1234567',
    documentIds: [],
    submittedAt: new Date(Date.parse(reviewedAt) - DAY),
    reviewedAt: new Date(reviewedAt),
  });
}

const ids = (list: { _id: string }[]) => list.map((t) => t._id);

describe('admin money API', () => {
  let ctx: TestContext;
  let adminToken: string;
  let memberToken: string;
  let admin: Seeded;

  beforeAll(async () => {
    // A Wednesday; dividends are paid at 00:00 UTC (the test config's PAYOUT_TIME).
    ctx = await createTestApp({ clock: fixedClock('2026-03-18T12:00:00Z') });
    ({ adminToken, memberToken, admin } = await createMemberAndAdmin(ctx));
  });
  afterAll(() => ctx.close());

  const get = (url: string, token?: string) => ctx.app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });
  /** GET `url` as the admin, expecting a 200; answers the body. */
  const adminGet = async (url: string) => {
    const response = await get(url, adminToken);
    expect(response.statusCode).toBe(200);
    return response.json();
  };

  const routes = [
    '/api/admin/dashboard/stats',
    '/api/admin/dashboard/transactions',
    '/api/admin/transactions',
    '/api/admin/transactions?page=2&search=ada',
    '/api/users/stats',
    '/api/users/stats/monthly/2026/3',
    '/api/transactions/stats',
    '/api/transactions/stats/monthly/2026/3',
  ];

  it('answers only admins: 401 without a session, 403 to a member', async () => {
    for (const url of routes) {
      const anonymous = await get(url);
      expect(anonymous.statusCode, url).toBe(401);
      expect(anonymous.json(), url).toEqual({ message: messages.auth.sessionExpired, code: 'UNAUTHENTICATED' });
      const member = await get(url, memberToken);
      expect(member.statusCode, url).toBe(403);
      expect(member.json().code, url).toBe('FORBIDDEN');
      expect((await get(url, adminToken)).statusCode, url).toBe(200);
    }
  });

  describe('figures', () => {
    let m1: Seeded;
    let m2: Seeded;
    let m3: Seeded;

    beforeAll(async () => {
      // createMemberAndAdmin made one member and one admin, both created now. The rest are dated by hand.
      m1 = await createUser(ctx, { createdAt: new Date('2026-03-01T09:00:00Z'), kycStatus: 'pending' });
      m2 = await createUser(ctx, { createdAt: new Date('2026-03-10T09:00:00Z'), kycStatus: 'approved', kycVerified: true });
      m3 = await createUser(ctx, { createdAt: new Date('2026-02-01T09:00:00Z'), kycStatus: 'rejected' });
      const m4 = await createUser(ctx, { createdAt: new Date('2026-01-20T09:00:00Z'), kycStatus: 'approved', kycVerified: true });
      await createUser(ctx, { createdAt: new Date('2025-11-05T09:00:00Z') });
      // A deleted member counts nowhere, even with a pending KYC.
      await createUser(ctx, { createdAt: new Date('2026-03-05T09:00:00Z'), kycStatus: 'pending', deletedAt: new Date('2026-03-06T00:00:00Z') });
      await insertKycReview(ctx, m2, '2026-03-12T15:00:00Z');
      await insertKycReview(ctx, m4, '2026-02-10T15:00:00Z');

      const projectId = await insertProject(ctx, admin.id);
      await insertTransactions(ctx, [
        { user: m1, type: 'deposit', status: 'completed', cents: 70_000, at: '2026-03-05T10:00:00Z' },
        { user: m3, type: 'deposit', status: 'completed', cents: 120_000, at: '2026-02-03T10:00:00Z' },
        { user: m4, type: 'deposit', status: 'completed', cents: 250_000, at: '2025-12-10T10:00:00Z' },
        { user: m2, type: 'deposit', status: 'pending', cents: 500_000, at: '2026-03-17T10:00:00Z' },
        { user: m1, type: 'deposit', status: 'failed', cents: 70_000, at: '2026-03-02T10:00:00Z' },
        { user: m2, type: 'investment', status: 'completed', cents: 30_000, at: '2026-03-15T10:00:00Z', projectId },
        { user: m2, type: 'payout', status: 'completed', cents: 1_000, at: '2026-03-17T00:00:00Z' },
        { user: m1, type: 'payout', status: 'completed', cents: 300, at: '2026-03-17T00:00:00Z' },
        { user: m2, type: 'payout', status: 'completed', cents: 2_200, at: '2026-03-16T00:00:00Z' },
        { user: m1, type: 'payout', status: 'completed', cents: 300, at: '2026-03-16T00:00:00Z' },
        { user: m2, type: 'withdrawal', status: 'completed', cents: 5_000, at: '2026-03-10T11:00:00Z' },
        { user: m2, type: 'withdrawal', status: 'pending', cents: 3_000, at: '2026-03-17T11:00:00Z' },
        { user: m3, type: 'withdrawal', status: 'failed', cents: 2_500, at: '2026-02-20T11:00:00Z' },
      ]);
    });

    it('computes the dashboard figures', async () => {
      expect(await adminGet('/api/admin/dashboard/stats')).toEqual({
        // The member created now, m1, m2, m3, m4 and the one from 2025; not the admin, not the deleted member.
        totalUsers: 6,
        // Completed deposits 700 + 1200 + 2500 and the completed investment 300.
        totalInvestments: 4_700,
        // The latest day paid is Tuesday 17 March: 10 + 3.
        totalDailyPayouts: 13,
        // Completed in March: deposit 700, investment 300, payouts 25 + 13, withdrawal 50.
        monthlyVolume: 1_088,
        // Joined in the last 30 days: the member created now, m1, m2 (3); the 30 days before: m3, m4 (2).
        userGrowth: 50,
        // Invested in the last 30 days: 700 + 300; before: 1200 → -16.666… → -16.7.
        investmentGrowth: -16.7,
      });
    });

    it('takes the latest day paid up to today, as the clock moves', async () => {
      const original = ctx.clock.now();
      // An admin session ends after 30 minutes unused: sign in again at each moment the clock jumps to.
      const statsAt = async (at: string) => {
        ctx.clock.set(at);
        return (await get('/api/admin/dashboard/stats', await loginAs(ctx, admin.email))).json();
      };
      try {
        expect((await statsAt('2026-03-16T18:00:00Z')).totalDailyPayouts).toBe(25);
        expect((await statsAt('2026-03-15T18:00:00Z')).totalDailyPayouts).toBe(0);
        // A weekend or a day not yet paid shows the latest day that was.
        expect((await statsAt('2026-03-21T18:00:00Z')).totalDailyPayouts).toBe(13);
      } finally {
        ctx.clock.set(original);
      }
    });

    it('compares 30-day windows as the clock moves: a fall, a start from nothing, nothing at all', async () => {
      const original = ctx.clock.now();
      // Through the service: a month ahead, the admin's session would have expired.
      const stats = async (at: string) => {
        ctx.clock.set(at);
        return dashboardStats({ db: ctx.database.db, clock: ctx.clock });
      };
      try {
        // Nobody joined and nothing was invested in the 30 days to 20 April; 3 and 1000 USD the 30 days before.
        expect(await stats('2026-04-20T12:00:00Z')).toMatchObject({ userGrowth: -100, investmentGrowth: -100, monthlyVolume: 0 });
        // 10 November 2025: one member in the last 30 days, none before; no investment in either window.
        expect(await stats('2025-11-10T12:00:00Z')).toMatchObject({ userGrowth: 100, investmentGrowth: 0 });
        // 20 December 2025: the 2500 deposit of 10 December against nothing before it; no member joined either side.
        expect(await stats('2025-12-20T12:00:00Z')).toMatchObject({ userGrowth: -100, investmentGrowth: 100, monthlyVolume: 2_500 });
        // 1 March 2026 09:00, the instant m1 was created: m1 and m3 are recent (2), m4 is before (1). Were the
        // window open at "now", m1 would fall out and the growth would read 0.
        expect(await stats('2026-03-01T09:00:00Z')).toMatchObject({ userGrowth: 100 });
      } finally {
        ctx.clock.set(original);
      }
    });

    it('lists the 10 newest transactions with their members', async () => {
      const list: AdminTransaction[] = await adminGet('/api/admin/dashboard/transactions');
      const expected = await rows<{ id: string }>(ctx, sql`select id from transactions order by created_at desc, id desc limit 10`);
      expect(ids(list)).toEqual(expected.map((r) => r.id));
      expect(list[0]).toMatchObject({ type: 'withdrawal', status: 'pending', amount: 30, user: { _id: m2.id, firstName: m2.firstName, lastName: m2.lastName, email: m2.email } });
      expect(Object.keys(list[0]!.user).sort()).toEqual(['_id', 'email', 'firstName', 'lastName']);
    });

    it('counts users', async () => {
      expect(await adminGet('/api/users/stats')).toEqual({
        totalUsers: 6,
        verifiedUsers: 2,
        pendingKyc: 1,
        approvedKyc: 2,
        rejectedKyc: 1,
        newUsersThisMonth: 3,
        admins: 1,
      });
    });

    it('counts users by month', async () => {
      const month = async (path: string) => (await get(`/api/users/stats/monthly/${path}`, adminToken)).json();
      expect(await month('2026/3')).toEqual({ year: 2026, month: 3, newUsers: 3, verifiedUsers: 1 });
      expect(await month('2026/03')).toEqual({ year: 2026, month: 3, newUsers: 3, verifiedUsers: 1 });
      expect(await month('2026/2')).toEqual({ year: 2026, month: 2, newUsers: 1, verifiedUsers: 1 });
      expect(await month('2026/1')).toEqual({ year: 2026, month: 1, newUsers: 1, verifiedUsers: 0 });
      expect(await month('2025/11')).toEqual({ year: 2025, month: 11, newUsers: 1, verifiedUsers: 0 });
      expect(await month('2024/6')).toEqual({ year: 2024, month: 6, newUsers: 0, verifiedUsers: 0 });
    });

    it('sums transactions by type, all time and by month', async () => {
      const allTime = {
        deposits: { count: 3, amount: 4_400 },
        withdrawals: { count: 1, amount: 50, pending: 1 },
        payouts: { count: 4, amount: 38 },
        investments: { count: 1, amount: 300 },
      };
      const none = { count: 0, amount: 0 };
      const month = async (path: string) => (await get(`/api/transactions/stats/monthly/${path}`, adminToken)).json();
      expect(await adminGet('/api/transactions/stats')).toEqual(allTime);
      // March holds every withdrawal, payout and investment; the deposits are spread over three months.
      expect(await month('2026/3')).toEqual({ year: 2026, month: 3, ...allTime, deposits: { count: 1, amount: 700 } });
      expect(await month('2026/2')).toEqual({
        year: 2026,
        month: 2,
        deposits: { count: 1, amount: 1_200 },
        withdrawals: { ...none, pending: 0 },
        payouts: none,
        investments: none,
      });
      expect((await month('2025/12')).deposits).toEqual({ count: 1, amount: 2_500 });
    });

    it('keeps /users/:id and /transactions/:id working beside the static stats paths', async () => {
      const user = await get(`/api/users/${m1.id}`, adminToken);
      expect(user.statusCode).toBe(200);
      expect(user.json()._id).toBe(m1.id);
      const [tx] = await rows<{ id: string }>(ctx, sql`select id from transactions where user_id = ${m1.id} limit 1`);
      const transaction = await get(`/api/transactions/${tx!.id}`, adminToken);
      expect(transaction.statusCode).toBe(200);
      expect(transaction.json()._id).toBe(tx!.id);
      expect((await get('/api/users/stats', adminToken)).json()).toHaveProperty('pendingKyc');
      expect((await get('/api/transactions/stats', adminToken)).json()).toHaveProperty('deposits');
    });

    it('refuses a nonsense year or month with a 400, never a 500', async () => {
      const bad = ['2026/13', '2026/0', '2026/00', '99999/1', '1999/12', '2101/1', 'abc/1', '2026/abc', '1e3/1', '2026/1e1', '2026/0x0C', '2026/%2012', '2026/-1', '2026/1.5', '%00/1', '0002026/1'];
      for (const path of bad) {
        for (const base of ['/api/users/stats/monthly', '/api/transactions/stats/monthly']) {
          const response = await get(`${base}/${path}`, adminToken);
          expect(response.statusCode, `${base}/${path}`).toBe(400);
          expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: messages.validation.invalidInput });
        }
      }
    });
  });
});

describe('admin transactions list', () => {
  const ctx = useTestApp({ clock: fixedClock('2026-03-18T12:00:00Z') });
  let adminToken: string;
  let ada: Seeded;
  let grace: Seeded;
  let alan: Seeded;
  /** The list order as the database sorts it: the oracle every page is checked against. */
  let order: string[];

  beforeAll(async () => {
    ({ adminToken } = await createMemberAndAdmin(ctx));
    ada = await createUser(ctx, { firstName: 'Ada', lastName: 'Lovelace', email: uniqueEmail('ada.lovelace') });
    grace = await createUser(ctx, { firstName: 'Grace', lastName: 'Hopper', email: uniqueEmail('grace.hopper') });
    alan = await createUser(ctx, { firstName: 'Alan', lastName: 'Turing', email: uniqueEmail('alan.turing') });
    const people = [ada, grace, alan];
    const types = ['deposit', 'withdrawal', 'payout'] as const;
    const statuses = ['completed', 'pending', 'failed'] as const;
    // 45 transactions in triples: two share one timestamp exactly (the id decides), the third is 1 µs older, within
    // the same millisecond, which a key rounded to JavaScript's milliseconds would skip or repeat.
    for (let i = 0; i < 45; i += 1) {
      const person = people[i % 3]!;
      const type = types[Math.floor(i / 3) % 3]!;
      const status = statuses[Math.floor(i / 9) % 3]!;
      const micro = i % 3 === 2 ? 122 : 123;
      await ctx.database.db.execute(sql`
        insert into transactions (user_id, type, amount_cents, status, description, created_at, updated_at)
        values (${person.id}, ${type}, ${(i + 1) * 100}, ${status}, 'seeded',
                ('2026-03-10T10:00:00Z'::timestamptz - make_interval(mins => ${Math.floor(i / 3)}) + make_interval(secs => ${micro} / 1000000.0)),
                now())`);
    }
    order = (await rows<{ id: string }>(ctx, sql`select id from transactions order by created_at desc, id desc`)).map((r) => r.id);
    expect(order).toHaveLength(45);
  });

  const get = (url: string, app: App = ctx.app) => app.inject({ method: 'GET', url, headers: bearer(adminToken) });
  const page = async (query: string, app?: App) => {
    const response = await get(`/api/admin/transactions${query}`, app);
    expect(response.statusCode, `${query}: ${response.body}`).toBe(200);
    return {
      ids: ids(response.json() as AdminTransaction[]),
      items: response.json() as AdminTransaction[],
      cursor: response.headers['x-next-cursor'] as string | undefined,
      link: response.headers.link as string | undefined,
    };
  };
  /** A second server on the same database: its bookmarks are empty, so every page number is a cold jump. */
  const coldServer = () =>
    buildApp({ config: testConfig(), db: ctx.database.db, clock: ctx.clock, logger: pino({ level: 'silent' }) });

  it('serves 45 transactions as pages of 20, 20 and 5, newest first, then []', async () => {
    const first = await page('?page=1');
    const second = await page('?page=2');
    const third = await page('?page=3');
    expect(first.ids).toEqual(order.slice(0, 20));
    expect(second.ids).toEqual(order.slice(20, 40));
    expect(third.ids).toEqual(order.slice(40, 45));
    expect((await page('?page=4')).ids).toEqual([]);
    expect((await page('?page=1000000')).ids).toEqual([]);
    // No page number means page 1.
    expect((await page('')).ids).toEqual(order.slice(0, 20));
    expect(first.items[0]).toMatchObject({ user: { firstName: expect.any(String), email: expect.any(String) } });
  });

  it('names the next page in X-Next-Cursor and Link only while there is one', async () => {
    const first = await page('?page=1');
    expect(first.cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(first.link).toBe(`</api/admin/transactions?page=2&cursor=${first.cursor}>; rel="next"`);
    const third = await page('?page=3');
    expect(third.cursor).toBeUndefined();
    expect(third.link).toBeUndefined();
  });

  it('gives the same pages by cursor, by Link and by page number', async () => {
    const byNumber = [await page('?page=1'), await page('?page=2'), await page('?page=3')];
    const viaCursor = [await page('?page=1')];
    viaCursor.push(await page(`?cursor=${viaCursor[0]!.cursor}`));
    viaCursor.push(await page(`?cursor=${viaCursor[1]!.cursor}`));
    expect(viaCursor.map((p) => p.ids)).toEqual(byNumber.map((p) => p.ids));

    let link = byNumber[0]!.link;
    const viaLink: string[][] = [byNumber[0]!.ids];
    while (link) {
      const url = /^<([^>]+)>; rel="next"$/.exec(link)![1]!;
      const next = await page(url.replace('/api/admin/transactions', ''));
      viaLink.push(next.ids);
      link = next.link;
    }
    expect(viaLink).toEqual(byNumber.map((p) => p.ids));
    expect(viaLink.flat()).toEqual(order);
  });

  it('gives the same page on a cold jump as sequentially, on a server that has seen no page', async () => {
    const sequential = [await page('?page=1'), await page('?page=2'), await page('?page=3')].map((p) => p.ids);
    for (const n of [3, 2, 1]) {
      const cold = await coldServer();
      try {
        expect((await page(`?page=${n}`, cold)).ids, `page ${n}`).toEqual(sequential[n - 1]);
        // Having jumped, it goes on from there.
        if (n < 3) expect((await page(`?page=${n + 1}`, cold)).ids).toEqual(sequential[n]);
      } finally {
        await cold.close();
      }
    }
    const cold = await coldServer();
    try {
      expect((await page('?page=4', cold)).ids).toEqual([]);
      expect((await page('?page=999999', cold)).ids).toEqual([]);
    } finally {
      await cold.close();
    }
  });

  it('does not let a cursor sent with an unrelated page number mislabel the pages after it', async () => {
    const first = await page('?page=1');
    // The rows after page 1, labelled page 5 by the client: served as asked...
    expect((await page(`?page=5&cursor=${first.cursor}`)).ids).toEqual(order.slice(20, 40));
    // ...but page 6 is still past the end, and page 3 still the last five rows.
    expect((await page('?page=6')).ids).toEqual([]);
    expect((await page('?page=3')).ids).toEqual(order.slice(40));
  });

  it('searches e-mail, names, "first last", an exact id, a type and a status, case-insensitively', async () => {
    const all = await rows<{ id: string; user_id: string; type: string; status: string }>(
      ctx,
      sql`select id, user_id, type, status from transactions order by created_at desc, id desc`,
    );
    const where = (keep: (t: (typeof all)[number]) => boolean) => all.filter(keep).map((t) => t.id);
    const search = async (text: string) => (await page(`?search=${encodeURIComponent(text)}`)).ids;

    expect(await search('ada')).toEqual(where((t) => t.user_id === ada.id));
    expect(await search('LOVELACE')).toEqual(where((t) => t.user_id === ada.id));
    expect(await search('Ada Lovelace')).toEqual(where((t) => t.user_id === ada.id));
    expect(await search('  grace   hopper ')).toEqual(where((t) => t.user_id === grace.id));
    expect(await search(grace.email)).toEqual(where((t) => t.user_id === grace.id));
    expect(await search('turing@')).toEqual([]);
    expect(await search('alan.turing')).toEqual(where((t) => t.user_id === alan.id));
    expect(await search('withdrawal')).toEqual(where((t) => t.type === 'withdrawal'));
    expect(await search('Pending')).toEqual(where((t) => t.status === 'pending'));
    expect(await search('ada deposit')).toEqual(where((t) => t.user_id === ada.id && t.type === 'deposit'));
    expect(await search('hopper failed payout')).toEqual(where((t) => t.user_id === grace.id && t.status === 'failed' && t.type === 'payout'));
    const target = all[17]!;
    expect(await search(target.id)).toEqual([target.id]);
    expect(await search(target.id.toUpperCase())).toEqual([target.id]);
    // A uuid names a transaction, not a member.
    expect(await search(ada.id)).toEqual([]);
    // Wildcards are characters, not patterns; a word matching nothing matches nothing.
    expect(await search('%')).toEqual([]);
    expect(await search('_')).toEqual([]);
    expect(await search('ada nobody')).toEqual([]);
    // A blank search is no search.
    expect(await search('   ')).toEqual(order.slice(0, 20));
  });

  it('pages a search the same by cursor, by page number and by a cold jump', async () => {
    const matching = (await rows<{ id: string }>(
      ctx,
      sql`select t.id from transactions t join users u on u.id = t.user_id
          where u.first_name in ('Ada', 'Grace') order by t.created_at desc, t.id desc`,
    )).map((r) => r.id);
    expect(matching).toHaveLength(30);
    // "ace" is in Lovelace and Grace (names and e-mails), not in Alan Turing nor in the member and admin.
    const q = `&search=${encodeURIComponent('ace')}`;
    const byNumber = [await page(`?page=1${q}`), await page(`?page=2${q}`)];
    expect(byNumber.map((p) => p.ids)).toEqual([matching.slice(0, 20), matching.slice(20)]);
    expect(byNumber[0]!.link).toBe(`</api/admin/transactions?page=2&search=ace&cursor=${byNumber[0]!.cursor}>; rel="next"`);
    expect((await page(`?cursor=${byNumber[0]!.cursor}${q}`)).ids).toEqual(matching.slice(20));
    expect((await page(`?page=3${q}`)).ids).toEqual([]);
    const cold = await coldServer();
    try {
      expect((await page(`?page=2${q}`, cold)).ids).toEqual(matching.slice(20));
    } finally {
      await cold.close();
    }
  });

  it('shows a new transaction on page 1 and shifts the numbered pages after it; a cursor continues where it was', async () => {
    const before = await page('?page=1');
    await page('?page=2');
    const [newest] = await insertTransactions(ctx, [{ user: ada, type: 'deposit', status: 'pending', cents: 70_000, at: '2026-03-18T11:00:00Z' }]);
    const now = (await rows<{ id: string }>(ctx, sql`select id from transactions order by created_at desc, id desc`)).map((r) => r.id);
    expect(now[0]).toBe(newest);

    // Load More from a page already shown: the rows after it, none repeated.
    expect((await page(`?cursor=${before.cursor}`)).ids).toEqual(order.slice(20, 40));
    // Page 1 again ends on a different row, so the bookmarks after it are dropped: page 2 is page 2 of the list now.
    expect((await page('?page=1')).ids).toEqual(now.slice(0, 20));
    expect((await page('?page=2')).ids).toEqual(now.slice(20, 40));
    expect((await page('?page=3')).ids).toEqual(now.slice(40));
  });

  it('reads a page from transactions_created_idx in its own order: no sort, no OFFSET', async () => {
    const deep = decodeCursor(encodeCursor({ createdAt: '2026-03-10T09:50:00.000123Z', id: order[30]! }))!;
    for (const key of [undefined, deep]) {
      const query = pageQuery({ db: ctx.database.db }, undefined, key, PAGE + 1);
      expect(query.toSQL().sql).not.toMatch(/offset/i);
      // EXPLAIN takes no bind parameters: the statement's values are written in as literals (ours, all safe).
      const { sql: text, params } = query.toSQL();
      const literal = text.replace(/\$(\d+)/g, (_, n: string) => {
        const value = params[Number(n) - 1];
        return typeof value === 'number' ? String(value) : `'${String(value).replaceAll("'", "''")}'`;
      });
      // Seq scans off so that the tiny test table is planned as a big one would be.
      const plan = await ctx.database.db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        const result = (await tx.execute(sql.raw(`explain ${literal}`))) as unknown as { rows: { 'QUERY PLAN': string }[] };
        return result.rows.map((r) => r['QUERY PLAN']).join('\n');
      });
      expect(plan).toMatch(/Index (Only )?Scan using transactions_created_idx/);
      expect(plan).not.toMatch(/(^|->)\s*(Incremental )?Sort\b/m);
      if (key) expect(plan).toMatch(/Index Cond: \(ROW\(created_at, id\) < ROW\(/);
    }
  });

  it('refuses malformed page, search and cursor with a 400 and the message, never a 500', async () => {
    const valid = encodeCursor({ createdAt: '2026-03-10T10:00:00.000123Z', id: order[0]! });
    const b64 = (text: string) => Buffer.from(text).toString('base64url');
    // An array where one value is expected fails the contract's type check, with zod's own wording.
    const cases: [query: string, message: string | undefined][] = [
      ['?page=0', messages.admin.pageInvalid],
      ['?page=-1', messages.admin.pageInvalid],
      ['?page=abc', messages.admin.pageInvalid],
      ['?page=1.5', messages.admin.pageInvalid],
      ['?page=1000001', messages.admin.pageInvalid],
      ['?page=1&page=2', messages.admin.pageInvalid],
      ['?page=Infinity', messages.admin.pageInvalid],
      [`?search=${'x'.repeat(101)}`, messages.admin.searchTooLong],
      ['?search=a&search=b', undefined],
      ['?search=%00', messages.validation.invalidInput],
      ['?cursor=', messages.admin.cursorInvalid],
      ['?cursor=not*base64', messages.admin.cursorInvalid],
      [`?cursor=${b64('hello')}`, messages.admin.cursorInvalid],
      [`?cursor=${b64(`2026-13-01T00:00:00.000000Z|${order[0]}`)}`, messages.admin.cursorInvalid],
      [`?cursor=${b64(`2026-02-31T00:00:00.000000Z|${order[0]}`)}`, messages.admin.cursorInvalid],
      [`?cursor=${b64(`2026-02-01T24:00:00.000000Z|${order[0]}`)}`, messages.admin.cursorInvalid],
      [`?cursor=${b64(`2026-02-01T00:00:00Z|${order[0]}`)}`, messages.admin.cursorInvalid],
      [`?cursor=${b64(`2026-02-01T00:00:00.000000Z|not-a-uuid`)}`, messages.admin.cursorInvalid],
      [`?cursor=${b64(`2026-02-01T00:00:00.000000Z|${order[0]!.toUpperCase()}`)}`, messages.admin.cursorInvalid],
      [`?cursor=${b64(`2026-02-01T00:00:00.000000Z|${order[0]}|x`)}`, messages.admin.cursorInvalid],
      [`?cursor=${b64(`0000-01-01T00:00:00.000000Z|${order[0]}`)}`, messages.admin.cursorInvalid],
      [`?cursor=${valid}=`, messages.admin.cursorInvalid],
      [`?cursor=${valid.slice(0, -1)}`, messages.admin.cursorInvalid],
      [`?cursor=${'A'.repeat(201)}`, messages.admin.cursorInvalid],
      [`?cursor=${valid}&cursor=${valid}`, undefined],
    ];
    for (const [query, message] of cases) {
      const response = await get(`/api/admin/transactions${query}`);
      expect(response.statusCode, `${query}: ${response.body}`).toBe(400);
      expect(response.json(), query).toMatchObject({ code: 'VALIDATION_ERROR', message: message ?? expect.any(String) });
    }
    // The valid cursor itself is fine.
    expect((await get(`/api/admin/transactions?cursor=${valid}`)).statusCode).toBe(200);

    // Broken percent-encodings, lone surrogates, odd shapes: an answer, never a server error.
    const odd = ['?search=%', '?search=%E0%A4%A', '?search=%ED%A0%80', '?search=%F0%9F%98%80', '?search=%5C', '?search[a]=1', '?page[]=2', '?cursor[]=x', '?page=%00', '?cursor=%FF'];
    for (const query of odd) {
      const response = await get(`/api/admin/transactions${query}`);
      expect(response.statusCode, `${query}: ${response.body}`).toBeLessThan(500);
      if (response.statusCode >= 400) expect(response.json().code, query).toBe('VALIDATION_ERROR');
    }
  });
});

describe('a cold jump across several walking steps', () => {
  const ctx = useTestApp({ clock: fixedClock('2026-03-18T12:00:00Z') });
  let adminToken: string;
  let member: Seeded;

  beforeAll(async () => {
    ({ adminToken, member } = await createMemberAndAdmin(ctx));
    // 10,030 rows, set-based, many sharing a timestamp: more than two walking steps of 5,000 rows.
    await ctx.database.db.execute(sql`
      insert into transactions (user_id, type, amount_cents, status, description, created_at, updated_at)
      select ${member.id}, 'payout', 1000, 'completed', 'seeded',
             '2026-03-01T00:00:00Z'::timestamptz - make_interval(secs => (g / 3) * 1.000001), now()
      from generate_series(1, 10030) g`);
  });

  it('lands on the same rows as the database order', async () => {
    const target = 502; // rows 10,021 to 10,030: the walk steps 5,000 + 5,000 + 20 rows
    const response = await ctx.app.inject({ method: 'GET', url: `/api/admin/transactions?page=${target}`, headers: bearer(adminToken) });
    expect(response.statusCode).toBe(200);
    const expected = await rows<{ id: string }>(
      ctx,
      sql`select id from transactions order by created_at desc, id desc offset ${(target - 1) * PAGE} limit ${PAGE}`,
    );
    expect(ids(response.json())).toEqual(expected.map((r) => r.id));
    expect(expected).toHaveLength(10);
    // The walk left bookmarks, so the page before is now one seek away and agrees.
    const previous = await ctx.app.inject({ method: 'GET', url: `/api/admin/transactions?page=${target - 1}`, headers: bearer(adminToken) });
    const expectedPrevious = await rows<{ id: string }>(
      ctx,
      sql`select id from transactions order by created_at desc, id desc offset ${(target - 2) * PAGE} limit ${PAGE}`,
    );
    expect(ids(previous.json())).toEqual(expectedPrevious.map((r) => r.id));
    expect((await ctx.app.inject({ method: 'GET', url: `/api/admin/transactions?page=${target + 1}`, headers: bearer(adminToken) })).json()).toEqual([]);
  });
});

describe('page bookmarks and cursors', () => {
  const key = (n: number) => ({ createdAt: `2026-03-10T10:00:${String(n % 60).padStart(2, '0')}.000000Z`, id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}` });

  it('round-trips a cursor and refuses anything not made by encodeCursor', () => {
    expect(decodeCursor(encodeCursor(key(7)))).toEqual(key(7));
    expect(decodeCursor(encodeCursor({ createdAt: '2024-02-29T23:59:59.999999Z', id: key(1).id }))).not.toBeNull();
    expect(decodeCursor(encodeCursor({ createdAt: '2025-02-29T00:00:00.000000Z', id: key(1).id }))).toBeNull();
  });

  it('finds the nearest page before, forgets by age and by capacity, and drops the pages after a changed one', () => {
    const marks = new PageBookmarks(5, 1_000);
    marks.set('s', 1, key(1), 0);
    marks.set('s', 4, key(4), 0);
    marks.set('other', 9, key(9), 0);
    expect(marks.nearestBefore('s', 9, 10)).toEqual({ page: 4, key: key(4) });
    expect(marks.nearestBefore('s', 4, 10)).toEqual({ page: 1, key: key(1) });
    expect(marks.nearestBefore('s', 1, 10)).toBeUndefined();

    // Page 1 served again, ending on the same row: nothing after it moves.
    marks.set('s', 1, key(1), 20);
    expect(marks.get('s', 4, 20)).toEqual(key(4));
    // Page 1 now ends elsewhere: page 4's bookmark is stale and goes; other searches stay.
    marks.set('s', 1, key(2), 30);
    expect(marks.get('s', 4, 30)).toBeUndefined();
    expect(marks.get('other', 9, 30)).toEqual(key(9));

    // Age.
    expect(marks.get('other', 9, 2_000)).toBeUndefined();
    // Capacity: the least recently used goes first.
    for (let p = 1; p <= 6; p += 1) marks.set('c', p, key(p), 3_000);
    expect(marks.size).toBe(5);
    expect(marks.get('c', 1, 3_000)).toBeUndefined();
    expect(marks.get('c', 6, 3_000)).toEqual(key(6));
    marks.forgetFrom('c', 3);
    expect(marks.nearestBefore('c', 99, 3_000)).toEqual({ page: 2, key: key(2) });
  });
});

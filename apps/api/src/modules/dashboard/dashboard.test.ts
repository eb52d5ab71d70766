import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../lib/clock';
import { bearer, createTestApp, createUser, loginAs, type TestContext } from '../../../test/test-app';
import { memberships } from '../../db/schema';
import { newMembershipValues } from '../memberships';
import { runPayouts } from '../payouts';

describe('member dashboard', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    // Monday 2026-01-05 12:00 UTC.
    ctx = await createTestApp({ clock: fixedClock('2026-01-05T12:00:00Z') });
  });
  afterAll(() => ctx.close());

  const get = (url: string, token?: string) =>
    ctx.app.inject({ method: 'GET', url: `/api${url}`, headers: token ? bearer(token) : {} });

  it('shows nothing invented for a member without a pack', async () => {
    const user = await createUser(ctx);
    const token = await loginAs(ctx, user.email);
    expect((await get('/users/dashboard', token)).json()).toEqual({ totalAssets: 0, walletBalance: 0, membership: null, nextPayout: null, currentMembership: null });
    expect((await get('/users/investment-performance', token)).json()).toEqual([]);
    expect((await get('/users/dashboard')).statusCode).toBe(401);
  });

  it('adds pack, wallet and next payout, and projects business-day dividends', async () => {
    const user = await createUser(ctx);
    const token = await loginAs(ctx, user.email);
    await ctx.database.db.insert(memberships).values(newMembershipValues(user.id, 'gold', new Date('2026-01-01T10:00:00Z')));
    await runPayouts(ctx.database.db, { clock: ctx.clock, payoutTime: '00:00' });

    const dashboard = (await get('/users/dashboard', token)).json();
    // Paid Fri 2 and Mon 5: 20 USD in the wallet, on top of the 2500 pack.
    expect(dashboard).toEqual({
      totalAssets: 2520,
      walletBalance: 20,
      membership: 'gold',
      nextPayout: { amount: 10, time: '2026-01-06T00:00:00.000Z', remainingTime: 12 * 3600 },
      // Thu 2026-01-01 + 3 years = Mon 2029-01-01: the last paid day, ended at its payout time.
      currentMembership: {
        pack: 'gold',
        status: 'active',
        startedAt: '2026-01-01T10:00:00.000Z',
        endsAt: '2029-01-01T00:00:00.000Z',
        lastPaidDay: '2029-01-01',
        endedAt: null,
      },
    });

    const profile = (await get('/users/profile', token)).json();
    expect(profile).toMatchObject({ balance: 20, membershipLevel: 'gold', membershipStartDate: '2026-01-01T10:00:00.000Z' });

    const week = (await get('/users/investment-performance?period=1W', token)).json();
    expect(week).toHaveLength(8);
    expect(week[0]).toEqual({ date: '2026-01-05', value: 2520 });
    // Tue–Fri add 10 each; Sat and Sun add nothing; Mon adds 10.
    expect(week.map((p: { value: number }) => p.value)).toEqual([2520, 2530, 2540, 2550, 2560, 2560, 2560, 2570]);
    expect((await get('/users/investment-performance', token)).json().length).toBe(32);
    expect((await get('/users/investment-performance?period=2W', token)).statusCode).toBe(400);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../lib/clock';
import { bearer, createTestApp, createUser, loginAs, uniqueEmail, type TestContext } from '../../../test/test-app';
import { memberships } from '../../db/schema';
import { newMembershipValues } from '../../jobs/payouts';
import { msUntilNextPayout } from '../../jobs/payout-scheduler';
import { memberBalance } from '../ledger/ledger.service';

describe('POST /api/admin/payouts/run', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    // Monday 2026-01-05 12:00 UTC.
    ctx = await createTestApp({ clock: fixedClock('2026-01-05T12:00:00Z') });
  });
  afterAll(() => ctx.close());

  it('pays every due business day once, whoever presses it and however often', async () => {
    const admin = await createUser(ctx, { role: 'admin', email: uniqueEmail('admin') });
    const adminToken = await loginAs(ctx, admin.email);
    const member = await createUser(ctx);
    const memberToken = await loginAs(ctx, member.email);
    // A gold membership activated on Thursday 2026-01-01: due Fri 2, Mon 5 (Sat and Sun are not business days).
    await ctx.database.db.insert(memberships).values(newMembershipValues(member.id, 'gold', new Date('2026-01-01T10:00:00Z')));

    expect((await ctx.app.inject({ method: 'POST', url: '/api/admin/payouts/run', headers: bearer(memberToken) })).statusCode).toBe(403);
    expect((await ctx.app.inject({ method: 'POST', url: '/api/admin/payouts/run' })).statusCode).toBe(401);

    const first = await ctx.app.inject({ method: 'POST', url: '/api/admin/payouts/run', headers: bearer(adminToken) });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ days: ['2026-01-02', '2026-01-05'], paid: 2, amount: 20, membershipsEnded: 0, remindersSent: 0 });
    const again = await ctx.app.inject({ method: 'POST', url: '/api/admin/payouts/run', headers: bearer(adminToken) });
    expect(again.json()).toMatchObject({ paid: 0, amount: 0 });
    expect(await memberBalance(ctx.database.db, member.id, 'member_wallet')).toBe(2_000);

    const list = await ctx.app.inject({ method: 'GET', url: '/api/transactions', headers: bearer(memberToken) });
    expect(list.json().map((t: { type: string; amount: number; status: string }) => [t.type, t.amount, t.status])).toEqual([
      ['payout', 10, 'completed'],
      ['payout', 10, 'completed'],
    ]);
  });
});

describe('msUntilNextPayout', () => {
  it('counts to today’s payout time when it is still ahead, else to tomorrow’s', () => {
    expect(msUntilNextPayout(new Date('2026-01-05T05:00:00Z'), '06:30')).toBe(90 * 60_000);
    expect(msUntilNextPayout(new Date('2026-01-05T07:00:00Z'), '06:30')).toBe((23 * 60 + 30) * 60_000);
    expect(msUntilNextPayout(new Date('2026-01-05T00:00:00Z'), '00:00')).toBe(24 * 3600_000);
  });
});

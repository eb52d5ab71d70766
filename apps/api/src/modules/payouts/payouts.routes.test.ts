import { describe, expect, it } from 'vitest';
import { insertMembership, testAppAt } from '../../../test/memberships';
import { apiCaller, createMemberAndAdmin } from '../../../test/test-app';
import { memberBalance } from '../ledger';
import { msUntilNextPayout } from './payouts.service';

describe('POST /api/admin/payouts/run', () => {
  // Monday 2026-01-05 12:00 UTC.
  const context = testAppAt('2026-01-05T12:00:00Z');
  const inject = apiCaller(context);

  it('pays every due business day once, whoever presses it and however often', async () => {
    const ctx = context();
    const { member, memberToken, adminToken } = await createMemberAndAdmin(ctx);
    // A gold membership activated on Thursday 2026-01-01: due Fri 2, Mon 5 (Sat and Sun are not business days).
    await insertMembership(ctx, member.id, 'gold', '2026-01-01T10:00:00Z');

    expect((await inject('POST', '/admin/payouts/run', memberToken)).statusCode).toBe(403);
    expect((await inject('POST', '/admin/payouts/run')).statusCode).toBe(401);

    const first = await inject('POST', '/admin/payouts/run', adminToken);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ days: ['2026-01-02', '2026-01-05'], paid: 2, amount: 20, membershipsEnded: 0, remindersSent: 0 });
    const again = await inject('POST', '/admin/payouts/run', adminToken);
    expect(again.json()).toMatchObject({ paid: 0, amount: 0 });
    expect(await memberBalance(ctx.database.db, member.id, 'member_wallet')).toBe(2_000);

    const list = await inject('GET', '/transactions', memberToken);
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

import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { businessDaysBetween, createMember, testAppAt } from '../../test/memberships';
import { memberBalance } from '../modules/ledger';
import { runMembershipEnds } from '../modules/memberships';
import { startPayoutScheduler } from './payout-scheduler';

describe('a server down across both moments', () => {
  const context = testAppAt('2026-01-05T12:00:00Z');

  it('sends only "has ended" from the scheduler’s first run when it is back, and never a late warning after it', async () => {
    const ctx = context();
    const { user: member } = await createMember(ctx, 'ultimium', '2026-01-05T12:00:00Z');
    ctx.clock.set('2029-03-01T08:00:00Z');
    // The scheduler as the server starts it: its first run pays, then ends memberships and mails.
    const scheduler = startPayoutScheduler(ctx.database.db, {
      clock: ctx.clock,
      payoutTime: '00:00',
      logger: pino({ level: 'silent' }),
      afterRun: () => runMembershipEnds(ctx.app.deps),
    });
    await scheduler.stop();
    expect((await ctx.deliverMail()).filter((m) => m.to === member.email).map((m) => m.subject)).toEqual([
      'Your Ultimium membership has ended | Terrafund',
    ]);
    expect(await memberBalance(ctx.database.db, member.id, 'member_wallet')).toBe(businessDaysBetween('2026-01-06', '2029-01-05') * 500);
    expect((await runMembershipEnds(ctx.app.deps)).reminders).toBe(0);
    expect(await ctx.deliverMail()).toEqual([]);
  }, 300_000);
});

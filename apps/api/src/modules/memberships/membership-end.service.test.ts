import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { businessDaysBetween, buyPack, createMember, testAppAt } from '../../../test/memberships';
import { apiCaller, createUser, loginAs, uniqueEmail } from '../../../test/test-app';
import { membershipReminders, memberships, notifications } from '../../db/schema';
import { memberBalance } from '../ledger';
import { checkLedger } from '../reports';
import { runMembershipEnds } from './membership-end.service';
import { DAY_MS, membershipEnd, newMembershipValues } from './membership.service';

describe('the end of a membership (membershipEnd)', () => {
  it('is the last business day on or before activation + 3 years, at that day’s payout time', () => {
    // Mon 2026-01-05 + 3 years = Fri 2029-01-05.
    const friday = newMembershipValues('u', 'gold', new Date('2026-01-05T12:00:00Z'));
    expect(membershipEnd(friday)).toEqual({ lastPaidDay: '2029-01-05', endedAt: new Date('2029-01-05T00:00:00Z') });
    expect(membershipEnd(friday, '06:30').endedAt).toEqual(new Date('2029-01-05T06:30:00Z'));
    // Wed 2026-0107 + 3 years = Sun 2029-01-07: the last paid day is Friday.
    const sunday = newMembershipValues('u', 'gold', new Date('2026-01-07T09:00:00Z'));
    expect(membershipEnd(sunday).lastPaidDay).toBe('2029-01-05');
    // Sat 2026-01-10 + 3 years = Wed 2029-01-10.
    expect(membershipEnd(newMembershipValues('u', 'gold', new Date('2026-01-10T09:00:00Z'))).lastPaidDay).toBe('2029-01-10');
  });
});

describe('memberships end 3 years after activation', () => {
  // Monday 2026-01-05 12:00 UTC.
  const context = testAppAt('2026-01-05T12:00:00Z');
  const inject = apiCaller(context);
  /** Signs in afresh: the clock jumps past session lifetimes. */
  const as = (user: { email: string }) => loginAs(context(), user.email);

  const mailTo = async (email: string) => (await context().deliverMail()).filter((m) => m.to === email).map((m) => m.subject);

  it('stops paying at the end (catch-up included), leaves Total Assets, mails twice once each, and renews by a new pack', async () => {
    const ctx = context();
    const admin = await createUser(ctx, { role: 'admin', email: uniqueEmail('admin') });
    const member = await createUser(ctx);
    await buyPack(ctx, await as(member), 'gold');
    expect(await mailTo(member.email)).toEqual(['Your Gold pack is active | Terrafund']);
    const runJob = async () => {
      const response = await inject('POST', '/admin/payouts/run', await as(admin));
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ paid: number; membershipsEnded: number; remindersSent: number }>();
    };

    // The server was down from activation until 16 days before the end (Fri 2029-01-05 00:00): back, it
    // catches up and sends a late "ends in N days".
    ctx.clock.set('2028-12-20T12:00:00Z');
    const back = await runJob();
    expect(back).toMatchObject({ paid: businessDaysBetween('2026-01-06', '2028-12-20'), membershipsEnded: 0, remindersSent: 1 });
    expect(await mailTo(member.email)).toEqual(['Your Gold membership ends in 16 days | Terrafund']);
    expect(await runJob()).toMatchObject({ paid: 0, remindersSent: 0 });
    expect(await mailTo(member.email)).toEqual([]);

    let dashboard = (await inject('GET', '/users/dashboard', await as(member))).json();
    expect(dashboard.membership).toBe('gold');
    expect(dashboard.nextPayout).toMatchObject({ amount: 10, time: '2028-12-21T00:00:00.000Z' });
    expect(dashboard.currentMembership).toEqual({
      pack: 'gold',
      status: 'active',
      startedAt: '2026-01-05T12:00:00.000Z',
      endsAt: '2029-01-05T00:00:00.000Z',
      lastPaidDay: '2029-01-05',
      endedAt: null,
    });
    expect(dashboard.totalAssets).toBe(2500 + dashboard.walletBalance);

    // The day before the end, the next payout is the last one.
    ctx.clock.set('2029-01-04T12:00:00Z');
    dashboard = (await inject('GET', '/users/dashboard', await as(member))).json();
    expect(dashboard.nextPayout).toMatchObject({ time: '2029-01-05T00:00:00.000Z', remainingTime: 12 * 3600 });

    // Down again across the end, back weeks later: the catch-up stops at the last paid day, one "has ended"
    // mail (no late "ends in" about an end already past), and nothing more on a rerun.
    ctx.clock.set('2029-02-10T09:00:00Z');
    // Before the job has run, the answers already go by the end; the read itself runs the member's part of the
    // job before it answers, so the "has ended" mail does not wait for the scheduler.
    dashboard = (await inject('GET', '/users/dashboard', await as(member))).json();
    expect(dashboard).toMatchObject({ membership: null, nextPayout: null });
    expect(await mailTo(member.email)).toEqual(['Your Gold membership has ended | Terrafund']);
    const after = await runJob();
    expect(after).toMatchObject({ paid: businessDaysBetween('2028-12-21', '2029-01-05'), membershipsEnded: 0, remindersSent: 0 });
    expect(await mailTo(member.email)).toEqual([]);
    expect(await runJob()).toMatchObject({ paid: 0, membershipsEnded: 0, remindersSent: 0 });
    expect(await mailTo(member.email)).toEqual([]);

    const paidDays = businessDaysBetween('2026-01-06', '2029-01-05');
    expect(await memberBalance(ctx.database.db, member.id, 'member_wallet')).toBe(paidDays * 1_000);
    expect(await memberBalance(ctx.database.db, member.id, 'member_pack')).toBe(0);
    dashboard = (await inject('GET', '/users/dashboard', await as(member))).json();
    expect(dashboard).toEqual({
      totalAssets: paidDays * 10,
      walletBalance: paidDays * 10,
      membership: null,
      nextPayout: null,
      currentMembership: {
        pack: 'gold',
        status: 'ended',
        startedAt: '2026-01-05T12:00:00.000Z',
        endsAt: '2029-01-05T00:00:00.000Z',
        lastPaidDay: '2029-01-05',
        endedAt: '2029-01-05T00:00:00.000Z',
      },
    });
    expect((await inject('GET', '/users/investment-performance?period=1W', await as(member))).json()).toEqual([]);
    const profile = (await inject('GET', '/users/profile', await as(member))).json();
    expect(profile).toMatchObject({
      membershipLevel: null,
      membershipStartDate: null,
      membershipEndDate: null,
      currentMembership: { pack: 'gold', status: 'ended', endedAt: '2029-01-05T00:00:00.000Z' },
    });
    expect(await checkLedger(ctx.database.db)).toEqual([]);

    // Renewal is buying a pack again: it starts when paid, and pays from the next business day.
    await buyPack(ctx, await as(member), 'platinum');
    const activated = await ctx.deliverMail();
    expect(activated.find((m) => m.to === member.email)?.text).not.toContain('replaces');
    dashboard = (await inject('GET', '/users/dashboard', await as(member))).json();
    expect(dashboard).toMatchObject({
      membership: 'platinum',
      totalAssets: 5000 + paidDays * 10,
      nextPayout: { amount: 22, time: '2029-02-12T00:00:00.000Z' },
      currentMembership: { pack: 'platinum', status: 'active', startedAt: '2029-02-10T09:00:00.000Z', endedAt: null },
    });
    const rowsOf = await ctx.database.db.select().from(memberships).where(eq(memberships.userId, member.id)).orderBy(memberships.startedAt);
    expect(rowsOf.map((m) => [m.pack, m.status])).toEqual([
      ['gold', 'ended'],
      ['platinum', 'active'],
    ]);
    ctx.clock.set('2029-02-12T01:00:00Z');
    expect(await runJob()).toMatchObject({ paid: 1 });
    expect(await checkLedger(ctx.database.db)).toEqual([]);
  }, 300_000);

});

describe('the end mails', () => {
  const context = testAppAt('2026-01-05T12:00:00Z');

  it('mails 30 days before and on the end day when the job runs then, once each, however many runs at once', async () => {
    const ctx = context();
    const { user: member, membership } = await createMember(ctx, 'startium', '2026-01-05T12:00:00Z');
    const { endedAt } = membershipEnd(membership);
    const runs = () => Promise.all(Array.from({ length: 5 }, () => runMembershipEnds(ctx.app.deps)));
    const sent = (results: Awaited<ReturnType<typeof runs>>) => results.reduce((sum, r) => sum + r.reminders, 0);

    ctx.clock.set(new Date(endedAt.getTime() - 30 * DAY_MS - 1000));
    expect(sent(await runs())).toBe(0);
    ctx.clock.set(new Date(endedAt.getTime() - 30 * DAY_MS));
    expect(sent(await runs())).toBe(1);
    expect(sent(await runs())).toBe(0);
    const soon = (await ctx.deliverMail()).filter((m) => m.to === member.email);
    expect(soon.map((m) => m.subject)).toEqual(['Your Startium membership ends in 30 days | Terrafund']);
    expect(soon[0]!.text).toContain('its last daily dividend is paid on 2029-01-05');

    ctx.clock.set(new Date(endedAt.getTime() - 1000));
    expect(sent(await runs())).toBe(0);
    ctx.clock.set(endedAt);
    const ended = await runs();
    expect(sent(ended)).toBe(1);
    expect(ended.reduce((sum, r) => sum + r.ended, 0)).toBe(1);
    expect(sent(await runs())).toBe(0);
    const last = (await ctx.deliverMail()).filter((m) => m.to === member.email);
    expect(last.map((m) => m.subject)).toEqual(['Your Startium membership has ended | Terrafund']);
    expect(last[0]!.text).toContain('Buy a new pack: https://app.terrafund.test/wallet');

    const reminders = await ctx.database.db.select().from(membershipReminders).where(eq(membershipReminders.membershipId, membership.id));
    expect(reminders.map((r) => r.kind).sort()).toEqual(['ended', 'ending_soon']);
    // The bell carries the same two messages, once each.
    const bell = await ctx.database.db.select().from(notifications).where(eq(notifications.userId, member.id));
    expect(bell.map((n) => [n.type, n.title]).sort()).toEqual([
      ['membership.ended', 'Your Startium pack has ended'],
      ['membership.ending', 'Your Startium pack ends in 30 days'],
    ]);
    // The database itself refuses a second reminder of a kind.
    await expect(
      ctx.database.db.insert(membershipReminders).values({ membershipId: membership.id, kind: 'ended', sentAt: ctx.clock.now() }),
    ).rejects.toThrow();
  });
});

describe('an end moved back by a weekend', () => {
  const context = testAppAt('2026-01-07T23:00:00Z');

  it('warns 30 days before the Friday, though activation + 3 years is the Sunday after', async () => {
    const ctx = context();
    // Wed 2026-01-07 23:00 + 3 years = Sun 2029-01-07 23:00: the last paid day is Fri 2029-01-05.
    const { membership } = await createMember(ctx, 'gold', '2026-01-07T23:00:00Z');
    expect(membershipEnd(membership).endedAt).toEqual(new Date('2029-01-05T00:00:00Z'));
    ctx.clock.set(new Date(Date.parse('2029-01-05T00:00:00Z') - 30 * DAY_MS));
    expect(await runMembershipEnds(ctx.app.deps)).toEqual({ ended: 0, reminders: 1 });
    expect((await ctx.deliverMail()).map((m) => m.subject)).toEqual(['Your Gold membership ends in 30 days | Terrafund']);
  });
});

describe('a pack bought after the end', () => {
  const context = testAppAt('2026-01-05T12:00:00Z');

  it('a pack bought after the end, before any job marked it, renews: the old one is ended, not replaced, and mailed once', async () => {
    const ctx = context();
    ctx.clock.set('2026-01-05T12:00:00Z');
    const member = await createUser(ctx);
    const buy = async (plan: string) => buyPack(ctx, await loginAs(ctx, member.email), plan);
    await buy('startium');
    await ctx.deliverMail();
    ctx.clock.set('2029-01-20T10:00:00Z');
    await buy('gold');
    const rowsOf = await ctx.database.db.select().from(memberships).where(eq(memberships.userId, member.id)).orderBy(memberships.startedAt);
    expect(rowsOf.map((m) => [m.pack, m.status, m.replacedAt])).toEqual([
      ['startium', 'ended', null],
      ['gold', 'active', null],
    ]);
    expect(await memberBalance(ctx.database.db, member.id, 'member_pack')).toBe(250_000);
    // The settlement that renews sends the "has ended" mail the job had not sent yet, and the job sends nothing.
    const mail = (await ctx.deliverMail()).filter((m) => m.to === member.email);
    expect(mail.map((m) => m.subject).sort()).toEqual(['Your Gold pack is active | Terrafund', 'Your Startium membership has ended | Terrafund']);
    expect(mail.find((m) => m.subject.startsWith('Your Gold'))!.text).not.toContain('replaces');
    expect((await runMembershipEnds(ctx.app.deps)).reminders).toBe(0);
    expect(await ctx.deliverMail()).toEqual([]);
    expect(await checkLedger(ctx.database.db)).toEqual([]);
  });
});

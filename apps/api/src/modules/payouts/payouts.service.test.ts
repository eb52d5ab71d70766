import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { PackId } from '@terrafund/contracts';
import { createMember, insertMembership } from '../../../test/memberships';
import { createTestApp, createUser, rows, type TestContext } from '../../../test/test-app';
import { fixedClock } from '../../lib/clock';
import { memberBalance } from '../ledger';
import { checkLedger } from '../reports';
import { checkPayouts } from './payouts.repository';
import { nextPayoutFor, runPayouts } from './payouts.service';

// 2026-01-05 is a Monday.
describe('daily dividend payouts', () => {
  let ctx: TestContext | undefined;
  afterEach(async () => {
    await ctx?.close();
    ctx = undefined;
  });

  async function start(now: string) {
    ctx = await createTestApp({ clock: fixedClock(now) });
    return ctx;
  }

  const paidDays = async (c: TestContext, membershipId: string) =>
    (
      await rows<{ day: string }>(c, sql`select business_day::text as day from dividend_payouts where membership_id = ${membershipId} order by 1`)
    ).map((r) => r.day);

  /** Every invariant, and each wallet equals the sum of its member's payout transactions. */
  async function expectConsistent(c: TestContext) {
    expect(await checkLedger(c.database.db)).toEqual([]);
    expect(await checkPayouts(c.database.db)).toEqual([]);
    const wallets = await rows<{ user_id: string; balance: string; paid: string }>(c, sql`
      select a.user_id, a.balance_cents::text as balance,
        coalesce((select sum(t.amount_cents) from transactions t where t.user_id = a.user_id and t.type = 'payout'), 0)::text as paid
      from ledger_accounts a where a.kind = 'member_wallet'`);
    for (const w of wallets) expect(w.balance).toBe(w.paid);
    const [totals] = await rows<{ payouts: string; platform: string }>(c, sql`
      select (select coalesce(sum(amount_cents), 0) from dividend_payouts)::text as payouts,
             (select (-balance_cents)::text from ledger_accounts where code = 'platform:dividends_paid') as platform`);
    expect(totals!.platform).toBe(totals!.payouts);
  }

  it('pays weekdays and not weekends, from the business day after activation, the pack amount each', async () => {
    const c = await start('2026-01-12T00:30:00Z'); // Monday
    const friday = await createMember(c, 'startium', '2026-01-02T15:00:00Z');
    const monday = await createMember(c, 'gold', '2026-01-05T10:00:00Z');

    const result = await runPayouts(c.database.db, { clock: c.clock });
    expect(result.days).toEqual(['2026-01-05', '2026-01-06', '2026-01-07', '2026-01-08', '2026-01-09', '2026-01-12']);
    expect(await paidDays(c, friday.membership.id)).toEqual(result.days);
    expect(await paidDays(c, monday.membership.id)).toEqual(result.days.slice(1));
    expect(result).toMatchObject({ paid: 11, amountCents: 6 * 300 + 5 * 1000 });
    expect(await memberBalance(c.database.db, friday.user.id, 'member_wallet')).toBe(1_800);
    expect(await memberBalance(c.database.db, monday.user.id, 'member_wallet')).toBe(5_000);

    const txs = await rows<{ type: string; status: string; amount_cents: string; description: string; plan: string; created_at: Date }>(
      c,
      sql`select type, status, amount_cents::text, description, plan, created_at from transactions where user_id = ${monday.user.id} order by created_at`,
    );
    expect(txs).toHaveLength(5);
    expect(txs[0]).toMatchObject({ type: 'payout', status: 'completed', amount_cents: '1000', description: 'Daily dividend gold – 2026-01-06', plan: 'gold' });
    expect(new Date(txs[0]!.created_at).toISOString()).toBe('2026-01-06T00:00:00.000Z');
    // One journal entry per day's batch, one posting per wallet plus one on platform:dividends_paid.
    const entries = await rows<{ key: string; kind: string; lines: string }>(c, sql`
      select e.idempotency_key as key, e.kind, (select count(*) from postings p where p.entry_id = e.id)::text as lines
      from journal_entries e order by 1`);
    expect(entries).toEqual([
      { key: 'payouts:2026-01-05:1', kind: 'payout_batch', lines: '2' },
      ...['06', '07', '08', '09', '12'].map((d) => ({ key: `payouts:2026-01-${d}:1`, kind: 'payout_batch', lines: '3' })),
    ]);
    await expectConsistent(c);
  });

  it('pays 3, 5, 10 and 22 USD a day for the four packs', async () => {
    const c = await start('2026-01-05T00:00:00Z');
    const packs: PackId[] = ['startium', 'ultimium', 'gold', 'platinum'];
    const members = await Promise.all(packs.map((pack) => createMember(c, pack, '2026-01-02T09:00:00Z')));
    const result = await runPayouts(c.database.db, { clock: c.clock });
    expect(result).toEqual({ days: ['2026-01-05'], paid: 4, amountCents: 4_000 });
    const balances = await Promise.all(members.map((m) => memberBalance(c.database.db, m.user.id, 'member_wallet')));
    expect(balances).toEqual([300, 500, 1_000, 2_200]);
    await expectConsistent(c);
  });

  it('pays a day only once its PAYOUT_TIME has passed', async () => {
    const c = await start('2026-01-05T05:59:59Z');
    const m = await createMember(c, 'gold', '2026-01-01T12:00:00Z');
    expect(await runPayouts(c.database.db, { clock: c.clock, payoutTime: '06:00' })).toMatchObject({ days: ['2026-01-02'], paid: 1 });
    c.clock.set('2026-01-05T06:00:00Z');
    expect(await runPayouts(c.database.db, { clock: c.clock, payoutTime: '06:00' })).toMatchObject({ days: ['2026-01-05'], paid: 1 });
    expect(await paidDays(c, m.membership.id)).toEqual(['2026-01-02', '2026-01-05']);
    const [tx] = await rows<{ created_at: Date }>(c, sql`select created_at from transactions where description like '%2026-01-05'`);
    expect(new Date(tx!.created_at).toISOString()).toBe('2026-01-05T06:00:00.000Z');
    await expectConsistent(c);
  });

  it('pays up to and including the day the membership ends, not after', async () => {
    const c = await start('2026-01-16T12:00:00Z');
    const m = await createMember(c, 'ultimium', '2026-01-02T09:00:00Z', { endsAt: new Date('2026-01-07T10:00:00Z') });
    await runPayouts(c.database.db, { clock: c.clock });
    expect(await paidDays(c, m.membership.id)).toEqual(['2026-01-05', '2026-01-06', '2026-01-07']);
    expect(await memberBalance(c.database.db, m.user.id, 'member_wallet')).toBe(1_500);
    await expectConsistent(c);
  });

  it('pays a replaced pack through the day of the switch and the new one from the next business day', async () => {
    const c = await start('2026-01-12T01:00:00Z');
    const old = await createMember(c, 'gold', '2026-01-01T08:00:00Z', { status: 'replaced', replacedAt: new Date('2026-01-07T15:00:00Z') });
    const replacement = await insertMembership(c, old.user.id, 'platinum', '2026-01-07T15:00:00Z');
    await runPayouts(c.database.db, { clock: c.clock });
    expect(await paidDays(c, old.membership.id)).toEqual(['2026-01-02', '2026-01-05', '2026-01-06', '2026-01-07']);
    expect(await paidDays(c, replacement.id)).toEqual(['2026-01-08', '2026-01-09', '2026-01-12']);
    expect(await memberBalance(c.database.db, old.user.id, 'member_wallet')).toBe(4 * 1_000 + 3 * 2_200);
    await expectConsistent(c);
  });

  it('catches up every missed business day once after 10 days of downtime, and a second run pays nothing', async () => {
    const c = await start('2026-01-05T00:10:00Z');
    const m = await createMember(c, 'gold', '2026-01-02T09:00:00Z');
    expect(await runPayouts(c.database.db, { clock: c.clock })).toMatchObject({ days: ['2026-01-05'], paid: 1 });
    expect(await runPayouts(c.database.db, { clock: c.clock })).toEqual({ days: [], paid: 0, amountCents: 0 });

    c.clock.set('2026-01-15T00:10:00Z');
    const result = await runPayouts(c.database.db, { clock: c.clock });
    expect(result.days).toEqual(['2026-01-06', '2026-01-07', '2026-01-08', '2026-01-09', '2026-01-12', '2026-01-13', '2026-01-14', '2026-01-15']);
    expect(result).toMatchObject({ paid: 8, amountCents: 8_000 });
    expect(await runPayouts(c.database.db, { clock: c.clock })).toEqual({ days: [], paid: 0, amountCents: 0 });
    expect(await paidDays(c, m.membership.id)).toHaveLength(9);
    expect(await memberBalance(c.database.db, m.user.id, 'member_wallet')).toBe(9_000);
    await expectConsistent(c);
  });

  it('catches up beyond one chunk of days in a single run', async () => {
    const c = await start('2026-01-05T00:00:00Z');
    const m = await createMember(c, 'startium', '2025-10-01T12:00:00Z');
    const result = await runPayouts(c.database.db, { clock: c.clock });
    let expected = 0;
    for (let d = Date.parse('2025-10-02'); d <= Date.parse('2026-01-05'); d += 86_400_000) {
      if (![0, 6].includes(new Date(d).getUTCDay())) expected += 1;
    }
    expect(result.paid).toBe(expected);
    expect(await paidDays(c, m.membership.id)).toHaveLength(expected);
    expect(await memberBalance(c.database.db, m.user.id, 'member_wallet')).toBe(expected * 300);
    await expectConsistent(c);
  });

  it('pays each membership and day exactly once when runs start at the same time', async () => {
    const c = await start('2026-01-16T03:00:00Z');
    const packs: PackId[] = ['startium', 'ultimium', 'gold', 'platinum'];
    const members = await Promise.all(
      Array.from({ length: 12 }, (_, i) => createMember(c, packs[i % 4]!, `2026-01-0${1 + (i % 3)}T10:00:00Z`)),
    );
    const results = await Promise.all(Array.from({ length: 4 }, () => runPayouts(c.database.db, { clock: c.clock })));

    const expectedDays = (startedDay: number) =>
      ['2026-01-02', '2026-01-05', '2026-01-06', '2026-01-07', '2026-01-08', '2026-01-09', '2026-01-12', '2026-01-13', '2026-01-14', '2026-01-15', '2026-01-16'].filter(
        (d) => Number(d.slice(8)) > startedDay,
      ).length;
    const expectedCount = members.reduce((n, _, i) => n + expectedDays(1 + (i % 3)), 0);
    expect(results.reduce((n, r) => n + r.paid, 0)).toBe(expectedCount);

    const [counts] = await rows<{ payouts: string; distinct_pairs: string; transactions: string; entries: string }>(c, sql`
      select (select count(*) from dividend_payouts)::text as payouts,
             (select count(distinct (membership_id, business_day)) from dividend_payouts)::text as distinct_pairs,
             (select count(*) from transactions where type = 'payout')::text as transactions,
             (select count(*) from journal_entries where kind = 'payout_batch')::text as entries`);
    expect(counts).toEqual({ payouts: String(expectedCount), distinct_pairs: String(expectedCount), transactions: String(expectedCount), entries: '11' });
    for (const [i, m] of members.entries()) {
      const daily = [300, 500, 1_000, 2_200][i % 4]!;
      expect(await memberBalance(c.database.db, m.user.id, 'member_wallet')).toBe(daily * expectedDays(1 + (i % 3)));
    }
    await expectConsistent(c);
  });

  it('walks memberships in slices by activation order: ties and microseconds neither skip nor repeat one', async () => {
    const c = await start('2026-01-09T03:00:00Z'); // Friday: Thursday and Friday are due
    // 730 members, more than several slices: groups of ten activated at the same microsecond (ties broken by
    // id), the groups a few microseconds apart (the cursor keeps the instant to the microsecond).
    await c.database.db.execute(sql`
      with u as (
        insert into users (email, first_name, last_name, password_hash, kyc_status, kyc_verified, created_at, updated_at)
        select 'walk.' || g || '@example.com', 'Walk', 'No. ' || g, '!', 'approved', true, now(), now()
        from generate_series(1, 730) g
        returning id, email
      )
      insert into memberships (user_id, pack, price_cents, daily_dividend_cents, started_at, ends_at, status, created_at)
      select u.id, 'startium', 10000, 300, s.at, s.at + interval '3 years', 'active', s.at
      from u cross join lateral (
        select timestamptz '2026-01-07 10:00:00+00' + (split_part(split_part(u.email, '@', 1), '.', 2)::int / 10) * interval '3 microseconds' as at
      ) s`);

    const first = await runPayouts(c.database.db, { clock: c.clock });
    expect(first).toMatchObject({ days: ['2026-01-08', '2026-01-09'], paid: 1_460, amountCents: 1_460 * 300 });
    const [counts] = await rows<{ pairs: string; members: string }>(c, sql`
      select count(distinct (membership_id, business_day))::text as pairs, count(distinct membership_id)::text as members from dividend_payouts`);
    expect(counts).toEqual({ pairs: '1460', members: '730' });
    expect((await runPayouts(c.database.db, { clock: c.clock })).paid).toBe(0);
    await expectConsistent(c);
  });

  it('keeps dividend_payouts append-only', async () => {
    const c = await start('2026-01-06T00:00:00Z');
    await createMember(c, 'gold', '2026-01-02T09:00:00Z');
    await runPayouts(c.database.db, { clock: c.clock });
    await expect(c.database.db.execute(sql`update dividend_payouts set amount_cents = 1`)).rejects.toThrow();
    await expect(c.database.db.execute(sql`delete from dividend_payouts`)).rejects.toThrow();
    await expectConsistent(c);
  });

  it('gives the next payout: amount, time and seconds left, Friday after payout time → Monday', async () => {
    const c = await start('2026-01-09T07:00:00Z'); // Friday
    const m = await createMember(c, 'platinum', '2026-01-02T09:00:00Z');
    const db = c.database.db;
    expect(await nextPayoutFor(db, m.user.id, c.clock)).toEqual({ amount: 22, time: '2026-01-12T00:00:00.000Z', remainingTime: 65 * 3600 });
    expect(await nextPayoutFor(db, m.user.id, c.clock, '06:00')).toEqual({ amount: 22, time: '2026-01-12T06:00:00.000Z', remainingTime: 71 * 3600 });
    // Friday before its payout time: today.
    expect(await nextPayoutFor(db, m.user.id, c.clock, '08:30')).toEqual({ amount: 22, time: '2026-01-09T08:30:00.000Z', remainingTime: 90 * 60 });
    // Activated today (Friday): the first payout is Monday's.
    const fresh = await createMember(c, 'startium', '2026-01-09T06:00:00Z');
    expect(await nextPayoutFor(db, fresh.user.id, c.clock, '08:30')).toMatchObject({ amount: 3, time: '2026-01-12T08:30:00.000Z' });
    // No active membership, or past its last day.
    const nobody = await createUser(c);
    expect(await nextPayoutFor(db, nobody.id, c.clock)).toBeNull();
    const over = await createMember(c, 'gold', '2026-01-02T09:00:00Z', { endsAt: new Date('2026-01-08T09:00:00Z') });
    expect(await nextPayoutFor(db, over.user.id, c.clock)).toBeNull();
  });
});

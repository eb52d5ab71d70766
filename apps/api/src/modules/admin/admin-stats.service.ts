import { sql, type SQL } from 'drizzle-orm';
import {
  centsToUsd,
  type AdminStats,
  type TransactionMonthlyStats,
  type TransactionStats,
  type UserMonthlyStats,
  type UserStats,
} from '@terrafund/contracts';
import { queryRows } from '../../db/client';
import type { Deps } from '../../deps';
import { PENDING_WITHDRAWAL } from '../withdrawals';
import { completedCentsBetween, dayOf, foldTransactionTotals, latestPayoutDayCents } from './transaction-totals';

/**
 * The admin's figures. Every figure is one set-based statement over the whole table (no loop
 * over users or transactions in JavaScript); the definitions are in docs/decisions.md ("Admin figures and the
 * transactions list"). Transactions are dated by created_at, the date every list shows.
 */

const DAY_MS = 86_400_000;
const GROWTH_WINDOW_MS = 30 * DAY_MS;

const iso = (ms: number) => new Date(ms).toISOString();
const at = (ms: number) => sql`${iso(ms)}::timestamptz`;
/** Sums and counts leave PostgreSQL as text (bigint and numeric differ between drivers) and become numbers here. */
const num = (value: string | number | null | undefined) => Number(value ?? 0);
const usd = (cents: string | number | null | undefined) => centsToUsd(num(cents));

/** [start, end) of a calendar month, UTC; `month` is 1–12. */
const monthBounds = (year: number, month: number) => ({ from: Date.UTC(year, month - 1, 1), to: Date.UTC(year, month, 1) });

/**
 * Percent change of `current` over `previous`, one decimal, rounded half away from zero by PostgreSQL's
 * numeric `round` (exact, where a float would turn 12.25 into 12.2). A start from nothing is 0 when nothing
 * happened and 100 when something did: there is no honest percentage of zero.
 */
const growth = (current: SQL, previous: SQL) => sql`(case
  when ${previous} = 0 then case when ${current} = 0 then 0 else 100 end
  else round((${current} - ${previous})::numeric * 100 / ${previous}, 1)
end)::float8`;

/**
 * GET /api/admin/dashboard/stats.
 * - totalUsers: live members (role user, not deleted).
 * - totalInvestments: USD ever put in: completed deposits (pack purchases) plus completed project investments.
 * - totalDailyPayouts: USD of the dividends paid on the latest day, up to today (UTC), on which any were paid.
 * - monthlyVolume: USD of completed transactions of every type dated in the current calendar month (UTC).
 * - userGrowth / investmentGrowth: new members / investments of the last 30 days against the 30 days before.
 */
export async function dashboardStats(deps: Pick<Deps, 'db' | 'clock'>): Promise<AdminStats> {
  const now = deps.clock.now();
  const nowMs = now.getTime();
  const { from: monthStart, to: nextMonth } = monthBounds(now.getUTCFullYear(), now.getUTCMonth() + 1);
  const tomorrow = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  // (now - 30 days, now] against the 30 days before it: something created this instant counts as recent.
  const recent = sql`created_at > ${at(nowMs - GROWTH_WINDOW_MS)} and created_at <= ${at(nowMs)}`;
  const before = sql`created_at > ${at(nowMs - 2 * GROWTH_WINDOW_MS)} and created_at <= ${at(nowMs - GROWTH_WINDOW_MS)}`;
  const invested = sql`type in ('deposit', 'investment')`;

  // Money figures read the per-day totals (transaction-totals.ts), not every transaction; fold them first.
  await foldTransactionTotals(deps.db);
  const [row] = await queryRows<{
    total_users: string;
    user_growth: number;
    invested: string;
    investment_growth: number;
    daily_payouts: string;
    monthly_volume: string;
  }>(
    deps.db,
    sql`
      with members as (
        select count(*) as total,
               count(*) filter (where ${recent}) as recent,
               count(*) filter (where ${before}) as before
        from users
        where role = 'user' and deleted_at is null
      ),
      money as (
        select coalesce(sum(amount_cents) filter (where ${invested}), 0) as invested,
               coalesce(sum(amount_cents) filter (where day >= ${dayOf(monthStart)}::date and day < ${dayOf(nextMonth)}::date), 0) as monthly,
               ${completedCentsBetween(invested, nowMs - GROWTH_WINDOW_MS, nowMs)} as invested_recent,
               ${completedCentsBetween(invested, nowMs - 2 * GROWTH_WINDOW_MS, nowMs - GROWTH_WINDOW_MS)} as invested_before
        from transaction_totals
        where status = 'completed'
      ),
      -- Dividends are dated at their business day's payout time, so the latest payout's UTC day is the day paid.
      payouts as (select ${latestPayoutDayCents(tomorrow)} as paid)
      select members.total::text as total_users,
             ${growth(sql`members.recent`, sql`members.before`)} as user_growth,
             money.invested::text as invested,
             ${growth(sql`money.invested_recent`, sql`money.invested_before`)} as investment_growth,
             payouts.paid::text as daily_payouts,
             money.monthly::text as monthly_volume
      from members, money, payouts`,
  );
  return {
    totalUsers: num(row?.total_users),
    totalInvestments: usd(row?.invested),
    totalDailyPayouts: usd(row?.daily_payouts),
    monthlyVolume: usd(row?.monthly_volume),
    userGrowth: num(row?.user_growth),
    investmentGrowth: num(row?.investment_growth),
  };
}

/** GET /api/users/stats: live accounts. KYC figures cover admins too, as the pending-KYC queue does. */
export async function userStats(deps: Pick<Deps, 'db' | 'clock'>): Promise<UserStats> {
  const now = deps.clock.now();
  const { from, to } = monthBounds(now.getUTCFullYear(), now.getUTCMonth() + 1);
  const [row] = await queryRows<Record<keyof UserStats, string>>(
    deps.db,
    sql`
      select count(*) filter (where role = 'user')::text as "totalUsers",
             count(*) filter (where kyc_verified)::text as "verifiedUsers",
             count(*) filter (where kyc_status = 'pending')::text as "pendingKyc",
             count(*) filter (where kyc_status = 'approved')::text as "approvedKyc",
             count(*) filter (where kyc_status = 'rejected')::text as "rejectedKyc",
             count(*) filter (where role = 'user' and created_at >= ${at(from)} and created_at < ${at(to)})::text as "newUsersThisMonth",
             count(*) filter (where role = 'admin')::text as "admins"
      from users
      where deleted_at is null`,
  );
  const figures: (keyof UserStats)[] = ['totalUsers', 'verifiedUsers', 'pendingKyc', 'approvedKyc', 'rejectedKyc', 'newUsersThisMonth', 'admins'];
  return Object.fromEntries(figures.map((figure) => [figure, num(row?.[figure])])) as UserStats;
}

/** GET /api/users/stats/monthly/:year/:month: members registered, and KYC approvals that still stand, in that month. */
export async function userMonthlyStats(deps: Pick<Deps, 'db'>, year: number, month: number): Promise<UserMonthlyStats> {
  const { from, to } = monthBounds(year, month);
  const [row] = await queryRows<{ new_users: string; verified_users: string }>(
    deps.db,
    sql`
      select
        (select count(*) from users
          where role = 'user' and deleted_at is null and created_at >= ${at(from)} and created_at < ${at(to)})::text as new_users,
        (select count(*) from users u join kyc_profiles k on k.user_id = u.id
          where u.deleted_at is null and u.kyc_verified and k.reviewed_at >= ${at(from)} and k.reviewed_at < ${at(to)})::text as verified_users`,
  );
  return { year, month, newUsers: num(row?.new_users), verifiedUsers: num(row?.verified_users) };
}

/** Completed transactions of each type (count and USD) and the withdrawals awaiting a decision, in one scan. */
async function transactionFigures(deps: Pick<Deps, 'db'>, period?: { from: number; to: number }): Promise<TransactionStats> {
  const completed = (type: string) => sql`type = ${type} and status = 'completed'`;
  const [row] = await queryRows<Record<string, string>>(
    deps.db,
    sql`
      select
        count(*) filter (where ${completed('deposit')})::text as deposits,
        coalesce(sum(amount_cents) filter (where ${completed('deposit')}), 0)::text as deposits_cents,
        count(*) filter (where ${completed('withdrawal')})::text as withdrawals,
        coalesce(sum(amount_cents) filter (where ${completed('withdrawal')}), 0)::text as withdrawals_cents,
        count(*) filter (where ${PENDING_WITHDRAWAL})::text as withdrawals_pending,
        count(*) filter (where ${completed('payout')})::text as payouts,
        coalesce(sum(amount_cents) filter (where ${completed('payout')}), 0)::text as payouts_cents,
        count(*) filter (where ${completed('investment')})::text as investments,
        coalesce(sum(amount_cents) filter (where ${completed('investment')}), 0)::text as investments_cents
      from transactions
      ${period ? sql`where created_at >= ${at(period.from)} and created_at < ${at(period.to)}` : sql``}`,
  );
  return {
    deposits: { count: num(row?.deposits), amount: usd(row?.deposits_cents) },
    withdrawals: { count: num(row?.withdrawals), amount: usd(row?.withdrawals_cents), pending: num(row?.withdrawals_pending) },
    payouts: { count: num(row?.payouts), amount: usd(row?.payouts_cents) },
    investments: { count: num(row?.investments), amount: usd(row?.investments_cents) },
  };
}

/** GET /api/transactions/stats: all time. */
export const transactionStats = (deps: Pick<Deps, 'db'>) => transactionFigures(deps);

/** GET /api/transactions/stats/monthly/:year/:month: transactions dated in that month (UTC). */
export async function transactionMonthlyStats(deps: Pick<Deps, 'db'>, year: number, month: number): Promise<TransactionMonthlyStats> {
  return { year, month, ...(await transactionFigures(deps, monthBounds(year, month))) };
}

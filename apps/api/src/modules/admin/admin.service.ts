import { and, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import {
  ADMIN_TRANSACTIONS_PAGE_SIZE,
  messages,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
  UUID_PATTERN,
  type AdminStats,
  type AdminTransaction,
  type TransactionMonthlyStats,
  type TransactionStats,
  type UserMonthlyStats,
  type UserStats,
  type adminTransactionsQuery,
} from '@terrafund/contracts';
import type { z } from 'zod';
import { queryRows } from '../../db/client';
import { transactions, users } from '../../db/schema';
import type { Deps } from '../../deps';
import { AppError } from '../../lib/app-error';
import { toTransactionDto } from '../transactions/transactions.service';
import { completedCentsBetween, dayOf, foldTransactionTotals, latestPayoutDayCents } from './transaction-totals';
import { decodeCursor, encodeCursor, sameKey, type PageBookmarks, type PageKey } from './transactions-page';

/**
 * The admin's money figures and lists. Every figure is one set-based statement over the whole table (no loop
 * over users or transactions in JavaScript); the definitions are in docs/decisions.md ("Admin figures and the
 * transactions list"). Transactions are dated by created_at, the date every list shows.
 */

const DAY_MS = 86_400_000;
const GROWTH_WINDOW_MS = 30 * DAY_MS;

const iso = (ms: number) => new Date(ms).toISOString();
const at = (ms: number) => sql`${iso(ms)}::timestamptz`;
/** Sums and counts leave PostgreSQL as text (bigint and numeric differ between drivers) and become numbers here. */
const num = (value: string | number | null | undefined) => Number(value ?? 0);
const usd = (cents: string | number | null | undefined) => num(cents) / 100;

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
  return {
    totalUsers: num(row?.totalUsers),
    verifiedUsers: num(row?.verifiedUsers),
    pendingKyc: num(row?.pendingKyc),
    approvedKyc: num(row?.approvedKyc),
    rejectedKyc: num(row?.rejectedKyc),
    newUsersThisMonth: num(row?.newUsersThisMonth),
    admins: num(row?.admins),
  };
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
        count(*) filter (where type = 'withdrawal' and status = 'pending')::text as withdrawals_pending,
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

// ---------------------------------------------------------------------------------------------------------------
// The transactions list

const PAGE_SIZE = ADMIN_TRANSACTIONS_PAGE_SIZE;
/** Rows a cold jump skips per statement; a multiple of the page size, so each step ends on a page boundary. */
const WALK_STEP_ROWS = 250 * PAGE_SIZE;

/** created_at with its microseconds, as the text a cursor carries (see transactions-page.ts). */
const keyTimestamp = (column: SQL | typeof transactions.createdAt) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** Escapes LIKE wildcards so a search for "50%" means those characters, not a pattern. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const isType = (word: string): word is (typeof TRANSACTION_TYPES)[number] => (TRANSACTION_TYPES as readonly string[]).includes(word);
const isStatus = (word: string): word is (typeof TRANSACTION_STATUSES)[number] =>
  (TRANSACTION_STATUSES as readonly string[]).includes(word);

/**
 * The search as a condition on transactions joined with users. Each word must match (so "ada lovelace", "ada
 * pending", "lovelace deposit" all narrow), case-insensitively:
 * - a word shaped like a uuid is a transaction id, matched exactly (an index lookup, not a scan);
 * - any other word is part of the member's e-mail, first or last name, or exactly a type or a status.
 */
export function searchCondition(search: string): SQL | undefined {
  const words = search.split(/\s+/).filter(Boolean);
  if (words.length === 0) return undefined;
  return and(
    ...words.map((word) => {
      if (UUID_PATTERN.test(word)) return eq(transactions.id, word.toLowerCase());
      const pattern = likePattern(word);
      const lower = word.toLowerCase();
      return or(
        ilike(users.email, pattern),
        ilike(users.firstName, pattern),
        ilike(users.lastName, pattern),
        isType(lower) ? eq(transactions.type, lower) : undefined,
        isStatus(lower) ? eq(transactions.status, lower) : undefined,
      );
    }),
  );
}

/**
 * The list order, spelled exactly as transactions_created_idx is built: `desc nulls last`. A bare `desc` means
 * `nulls first`, which the index does not provide (NOT NULL columns notwithstanding), and PostgreSQL would
 * sort the whole table for every page instead of reading 21 index entries.
 */
const listOrder = [sql`${transactions.createdAt} desc nulls last`, sql`${transactions.id} desc nulls last`] as const;

/** Rows strictly after `key` in the list order: a row comparison the index (created_at desc, id desc) seeks to. */
const after = (key: PageKey | undefined) =>
  key ? sql`(${transactions.createdAt}, ${transactions.id}) < (${key.createdAt}::timestamptz, ${key.id}::uuid)` : undefined;

/** The statement of a page: up to `limit` transactions with their member, after `key`, newest first. */
export function pageQuery(deps: Pick<Deps, 'db'>, where: SQL | undefined, key: PageKey | undefined, limit: number) {
  return deps.db
    .select({
      transaction: transactions,
      user: { _id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email },
      createdAt: keyTimestamp(transactions.createdAt),
    })
    .from(transactions)
    .innerJoin(users, eq(users.id, transactions.userId))
    .where(and(where, after(key)))
    .orderBy(...listOrder)
    .limit(limit);
}

/** Up to `limit` transactions with their member, after `key`, newest first, each with its own key. */
async function fetchRows(deps: Pick<Deps, 'db'>, where: SQL | undefined, key: PageKey | undefined, limit: number) {
  const rows = await pageQuery(deps, where, key, limit);
  return rows.map((row) => ({
    key: { createdAt: row.createdAt, id: row.transaction.id } satisfies PageKey,
    item: { ...toTransactionDto(row.transaction), user: row.user } satisfies AdminTransaction,
  }));
}

/**
 * The key `rows` rows after `key` (the start of the list when undefined), reading keys only; null when the
 * list ends first.
 */
async function skipRows(deps: Pick<Deps, 'db'>, where: SQL | undefined, key: PageKey | undefined, rows: number) {
  const base = deps.db.select({ createdAt: transactions.createdAt, id: transactions.id }).from(transactions);
  // Without a search the step never touches users: an index-only walk of transactions_created_idx.
  const chunk = (where ? base.innerJoin(users, eq(users.id, transactions.userId)) : base)
    .where(and(where, after(key)))
    .orderBy(...listOrder)
    .limit(rows)
    .as('chunk');
  const [last] = await deps.db
    .select({
      found: sql<string>`count(*)::text`,
      createdAt: sql<string | null>`(array_agg(${keyTimestamp(sql`${chunk.createdAt}`)} order by ${chunk.createdAt}, ${chunk.id}))[1]`,
      id: sql<string | null>`(array_agg(${chunk.id}::text order by ${chunk.createdAt}, ${chunk.id}))[1]`,
    })
    .from(chunk);
  if (!last || num(last.found) < rows || !last.createdAt || !last.id) return null;
  return { createdAt: last.createdAt, id: last.id } satisfies PageKey;
}

/**
 * Where page `page` starts (the key after the last row of page - 1), for a page number with no bookmark just
 * before it: from the nearest bookmark below (or the top), forward in keyset steps of WALK_STEP_ROWS rows,
 * bookmarking each step's end. Correct whatever the gap, but linear in it. Null when the list ends first.
 */
async function walkTo(deps: Pick<Deps, 'db'>, bookmarks: PageBookmarks, search: string, where: SQL | undefined, page: number, now: number) {
  const start = bookmarks.nearestBefore(search, page, now);
  let reached = start?.page ?? 0;
  let key = start?.key;
  while (reached < page - 1) {
    const rows = Math.min(WALK_STEP_ROWS, (page - 1 - reached) * PAGE_SIZE);
    const next = await skipRows(deps, where, key, rows);
    if (!next) return null;
    reached += rows / PAGE_SIZE;
    key = next;
    bookmarks.set(search, reached, key, now);
  }
  return key;
}

export type TransactionsPage = { items: AdminTransaction[]; next?: { page: number; cursor: string } };

/**
 * GET /api/admin/transactions: 20 a page, newest first, [] past the end. A page starts after the `cursor`
 * when one is given, else after the bookmark of the page before (walking to it when there is none). The
 * page's own end is bookmarked only when its start was the recorded end of the page before, so a cursor
 * sent with an unrelated page number cannot mislabel a bookmark.
 */
export async function listTransactions(
  deps: Pick<Deps, 'db' | 'clock'>,
  bookmarks: PageBookmarks,
  query: z.output<typeof adminTransactionsQuery>,
): Promise<TransactionsPage> {
  const { page, search } = query;
  const now = deps.clock.now().getTime();
  const where = searchCondition(search);

  let start: PageKey | undefined;
  let chained: boolean;
  if (query.cursor !== undefined) {
    const cursor = decodeCursor(query.cursor);
    if (!cursor) {
      throw new AppError('VALIDATION_ERROR', messages.admin.cursorInvalid, { fields: { cursor: messages.admin.cursorInvalid } });
    }
    start = cursor;
    chained = page > 1 && sameKey(bookmarks.get(search, page - 1, now), cursor);
  } else if (page > 1) {
    const found = bookmarks.get(search, page - 1, now) ?? (await walkTo(deps, bookmarks, search, where, page, now));
    if (!found) return { items: [] };
    start = found;
    chained = true;
  } else {
    chained = true;
  }

  // One row more than a page tells whether a next page exists without another query.
  const rows = await fetchRows(deps, where, start, PAGE_SIZE + 1);
  const pageRows = rows.slice(0, PAGE_SIZE);
  const last = pageRows.at(-1);
  if (chained) {
    if (last && pageRows.length === PAGE_SIZE) bookmarks.set(search, page, last.key, now);
    else bookmarks.forgetFrom(search, page);
  }
  return {
    items: pageRows.map((row) => row.item),
    ...(rows.length > PAGE_SIZE && last ? { next: { page: page + 1, cursor: encodeCursor(last.key) } } : {}),
  };
}

/** GET /api/admin/dashboard/transactions: the 10 newest transactions with their members. */
export async function recentTransactions(deps: Pick<Deps, 'db'>, limit = 10): Promise<AdminTransaction[]> {
  return (await fetchRows(deps, undefined, undefined, limit)).map((row) => row.item);
}

import { z } from 'zod';
import { messages } from './messages';

/**
 * The admin statistics calls of docs/product.md §7.1 Figures (/users/stats…, /transactions/stats…). Money is USD, counts are
 * whole numbers; every figure is defined in docs/decisions.md ("Admin figures and
 * the transactions list").
 */

const invalid = messages.validation.invalidInput;

/** The earliest and latest year a monthly figure may be asked for; anything else is nonsense, not "no data". */
export const STATS_MIN_YEAR = 2000;
export const STATS_MAX_YEAR = 2100;

/**
 * `/…/stats/monthly/:year/:month`. Digits only, read by a regular expression rather than `Number()`, which would
 * also accept " 12", "1e1" and "0x0C".
 */
export const monthlyStatsParams = z.object({
  year: z
    .string()
    .regex(/^\d{4}$/, invalid)
    .transform(Number)
    .pipe(z.number().int().min(STATS_MIN_YEAR, invalid).max(STATS_MAX_YEAR, invalid)),
  month: z
    .string()
    .regex(/^(0?[1-9]|1[0-2])$/, invalid)
    .transform(Number),
});
export type MonthlyStatsParams = z.input<typeof monthlyStatsParams>;

/** The month a monthly figure is for, as the answer repeats it. */
const statsMonth = { year: z.number().int(), month: z.number().int() };

/** GET /api/users/stats: live (not deleted) accounts. */
export const userStatsSchema = z.object({
  /** Members (role user). */
  totalUsers: z.number().int(),
  /** Accounts whose KYC is approved (the "Verified" badge of the admin screens), admins included. */
  verifiedUsers: z.number().int(),
  pendingKyc: z.number().int(),
  approvedKyc: z.number().int(),
  rejectedKyc: z.number().int(),
  /** Members registered in the current calendar month (UTC). */
  newUsersThisMonth: z.number().int(),
  admins: z.number().int(),
});
export type UserStats = z.infer<typeof userStatsSchema>;

/** GET /api/users/stats/monthly/:year/:month. */
export const userMonthlyStatsSchema = z.object({
  ...statsMonth,
  /** Members registered in that month (UTC). */
  newUsers: z.number().int(),
  /** Accounts whose KYC was approved in that month and still is. */
  verifiedUsers: z.number().int(),
});
export type UserMonthlyStats = z.infer<typeof userMonthlyStatsSchema>;

const countAndAmount = z.object({ count: z.number().int(), amount: z.number() });

/** GET /api/transactions/stats: completed transactions of each type; `withdrawals.pending` counts those awaiting a decision. */
export const transactionStatsSchema = z.object({
  deposits: countAndAmount,
  withdrawals: countAndAmount.extend({ pending: z.number().int() }),
  payouts: countAndAmount,
  investments: countAndAmount,
});
export type TransactionStats = z.infer<typeof transactionStatsSchema>;

/** GET /api/transactions/stats/monthly/:year/:month: the same figures for transactions dated in that month (UTC). */
export const transactionMonthlyStatsSchema = transactionStatsSchema.extend(statsMonth);
export type TransactionMonthlyStats = z.infer<typeof transactionMonthlyStatsSchema>;

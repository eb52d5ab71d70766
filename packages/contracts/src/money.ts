import { z } from 'zod';
import { messages } from './messages';

/** The four packs (spec section 9, wallet table; decisions section 3): dividends on business days. */
export const PACKS = [
  {
    id: 'startium',
    name: 'startium',
    price: 700,
    dailyDividend: 3,
    annualDividends: 780,
    annualIncomePercent: 111,
    description: 'Entry level membership',
    popular: false,
  },
  {
    id: 'ultimium',
    name: 'ultimium',
    price: 1200,
    dailyDividend: 5,
    annualDividends: 1300,
    annualIncomePercent: 108,
    description: 'Smart choice for active investors',
    popular: false,
  },
  {
    id: 'gold',
    name: 'gold',
    price: 2500,
    dailyDividend: 10,
    annualDividends: 2600,
    annualIncomePercent: 104,
    description: 'Premium investment experience',
    popular: true,
  },
  {
    id: 'platinum',
    name: 'platinum',
    price: 5000,
    dailyDividend: 22,
    annualDividends: 5720,
    annualIncomePercent: 114,
    description: 'Ultimate investment experience',
    popular: false,
  },
] as const;
export type PackId = (typeof PACKS)[number]['id'];
export const PACK_IDS = PACKS.map((p) => p.id) as [PackId, ...PackId[]];

/** What every pack includes (spec section 9). */
export const PACK_FEATURES = [
  '3-year renewable contract',
  'Minimum cashout of $25',
  'Priority support',
  'Non-refundable investment pack',
] as const;

export const MIN_WITHDRAWAL_USD = 25;
export const WITHDRAWAL_NETWORK_FEE = 1;

export const TRANSACTION_TYPES = ['deposit', 'withdrawal', 'payout', 'investment'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];
export const TRANSACTION_STATUSES = ['pending', 'completed', 'failed'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

export const planSchema = z.object({
  id: z.string(),
  name: z.string(),
  price: z.number(),
  dailyDividend: z.number(),
  annualDividends: z.number(),
  annualIncomePercent: z.number(),
  description: z.string(),
  features: z.array(z.string()),
  popular: z.boolean(),
});
export type Plan = z.infer<typeof planSchema>;

export const transactionSchema = z.object({
  _id: z.string(),
  type: z.enum(TRANSACTION_TYPES),
  amount: z.number(),
  status: z.enum(TRANSACTION_STATUSES),
  userId: z.string(),
  description: z.string(),
  walletAddress: z.string().nullable(),
  txHash: z.string().nullable(),
  plan: z.string().nullable(),
  date: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Transaction = z.infer<typeof transactionSchema>;

const w = messages.wallet;

/** USD with at most two decimals, as a number (decisions section 1). */
export const usdAmount = (invalid: string) =>
  z
    .number({ error: invalid })
    .finite(invalid)
    .positive(invalid)
    .max(10_000_000, invalid)
    .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, invalid);

/**
 * A withdrawal request. The spec's client also sends `_id`, `status`, `userId` and `description`: they are
 * accepted and ignored (the schema strips them), so the server decides all of them.
 */
export const createWithdrawalBody = z.object({
  type: z.literal('withdrawal'),
  amount: usdAmount(w.amountInvalid).refine((v) => v >= MIN_WITHDRAWAL_USD, w.minWithdrawal),
  walletAddress: z
    .string({ error: w.walletAddressRequired })
    .trim()
    .min(1, w.walletAddressRequired)
    .max(200, w.walletAddressInvalid)
    .regex(/^[A-Za-z0-9:._-]+$/, w.walletAddressInvalid),
});
export type CreateWithdrawalBody = z.input<typeof createWithdrawalBody>;

export const withdrawalDecisionBody = z.object({
  status: z.enum(['completed', 'failed'], { error: w.decisionInvalid }),
  txHash: z.string().trim().max(200).optional(),
});
export type WithdrawalDecisionBody = z.input<typeof withdrawalDecisionBody>;

export const PROJECTION_PERIODS = ['1W', '1M', '3M', '1Y', '3Y'] as const;
export type ProjectionPeriod = (typeof PROJECTION_PERIODS)[number];

export const dashboardSchema = z.object({
  totalAssets: z.number(),
  walletBalance: z.number(),
  /** The active pack's name, or null without one. */
  membership: z.string().nullable(),
  nextPayout: z.object({ amount: z.number(), time: z.string(), remainingTime: z.number() }).nullable(),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

export const performanceQuery = z.object({
  period: z.enum(PROJECTION_PERIODS, { error: 'Period must be one of 1W, 1M, 3M, 1Y, 3Y' }).optional().default('1M'),
});
export const projectionPointSchema = z.object({ date: z.string(), value: z.number() });
export type ProjectionPoint = z.infer<typeof projectionPointSchema>;

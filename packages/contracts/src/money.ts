import { z } from 'zod';
import { userSummarySchema } from './auth';
import { queryCount } from './list-fields';
import { membershipViewSchema } from './membership';
import { PROJECTION_PERIODS } from './constants';
import { messages } from './messages';
import { stepUpFields } from './security';
import { refineWithdrawalAddress, WITHDRAWAL_FEE_USD_DEFAULT, withdrawalAssetIdSchema, isWithdrawalAssetId } from './withdrawal-assets';

/** The four packs (docs/product.md §5.2 Packs, wallet table; docs/product.md §5.6 Dividends): dividends on business days. */
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

/** What every pack includes (docs/product.md §5.2 Packs). */
export const PACK_FEATURES = [
  '3-year renewable contract',
  'Minimum cashout of $25',
  'Priority support',
  'Non-refundable investment pack',
] as const;

export const MIN_WITHDRAWAL_USD = 25;
/** The default flat fee kept from every withdrawal (WITHDRAWAL_FEE_USD); GET /api/config says the one in force. */
export const WITHDRAWAL_NETWORK_FEE = WITHDRAWAL_FEE_USD_DEFAULT;

/**
 * Where a withdrawal is (issue "Money out for real"). `status` stays pending|completed|failed; the stage says more:
 * awaiting_confirmation (new address: the mailed link is not yet followed), awaiting_approval, waiting_for_provider
 * (approved, the payout could not be created yet: retried), sent (at the provider, in flight), completed, failed,
 * cancelled (by its member; status failed).
 */
export const WITHDRAWAL_STAGES = [
  'awaiting_confirmation',
  'awaiting_approval',
  'waiting_for_provider',
  'sent',
  'completed',
  'failed',
  'cancelled',
] as const;
export type WithdrawalStage = (typeof WITHDRAWAL_STAGES)[number];

export const PAYOUT_PROVIDERS = ['sandbox', 'btcpay', 'nowpayments', 'manual'] as const;
export type PayoutProviderId = (typeof PAYOUT_PROVIDERS)[number];

/** The payout at the provider, as last read there; fields are null until the provider says them. */
export const withdrawalPayoutSchema = z.object({
  provider: z.string(),
  id: z.string().nullable(),
  state: z.string().nullable(),
  cryptoAmount: z.string().nullable(),
  cryptoCurrency: z.string().nullable(),
  txHash: z.string().nullable(),
});
export type WithdrawalPayout = z.infer<typeof withdrawalPayoutSchema>;

/** One admin's approval of a withdrawal (admin answers only). */
export const withdrawalApprovalSchema = z.object({ adminEmail: z.string(), at: z.string() });
export type WithdrawalApproval = z.infer<typeof withdrawalApprovalSchema>;

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
  // Withdrawals only ------------------------------------------------------------------------------------------
  /** The coin's id (WITHDRAWAL_ASSET_IDS); null on a withdrawal made before coins were named. */
  asset: z.string().nullable().optional(),
  network: z.string().nullable().optional(),
  /** The flat fee kept from the amount, USD. */
  fee: z.number().optional(),
  /** What the member receives: amount − fee, USD. */
  receiveAmount: z.number().optional(),
  /** True while a first withdrawal to this address waits for the mailed link. */
  awaitingConfirmation: z.boolean().optional(),
  stage: z.enum(WITHDRAWAL_STAGES).optional(),
  payout: withdrawalPayoutSchema.nullable().optional(),
  /** Admin answers only (decision routes, admin list and detail): never sent to members. */
  approvals: z.array(withdrawalApprovalSchema).optional(),
});
export type Transaction = z.infer<typeof transactionSchema>;

const w = messages.wallet;

/** USD with at most two decimals, as a number (docs/product.md §9.1 General). */
export const usdAmount = (invalid: string) =>
  z
    .number({ error: invalid })
    .finite(invalid)
    .positive(invalid)
    .max(10_000_000, invalid)
    .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, invalid);

/**
 * A withdrawal request's fields, without the address rule (for forms that extend them): `asset` names the coin,
 * `walletAddress` is checked for it (refineWithdrawalAddress), `password` or `code` is the step-up. The spec's
 * client also sends `_id`, `status`, `userId` and `description`: they are accepted and ignored (the schema strips
 * them), so the server decides all of them.
 */
export const withdrawalRequestFields = z.object({
  type: z.literal('withdrawal'),
  amount: usdAmount(w.amountInvalid).refine((v) => v >= MIN_WITHDRAWAL_USD, w.minWithdrawal),
  walletAddress: z
    .string({ error: w.walletAddressRequired })
    .trim()
    .min(1, w.walletAddressRequired)
    .max(200, w.walletAddressInvalid),
  asset: withdrawalAssetIdSchema,
  ...stepUpFields,
});

/** POST /api/transactions `{type:"withdrawal", amount, walletAddress, asset, password | code}`. */
export const createWithdrawalBody = withdrawalRequestFields.superRefine((value, ctx) => {
  // The address is checked for its coin once both are readable, whatever else is wrong (the amount, say).
  if (!isWithdrawalAssetId(value.asset) || typeof value.walletAddress !== 'string' || value.walletAddress === '') return;
  refineWithdrawalAddress(value, ctx);
}, { when: (payload) => {
  const value = payload.value as { asset?: unknown; walletAddress?: unknown } | undefined;
  return typeof value === 'object' && value !== null && isWithdrawalAssetId(value.asset) && typeof value.walletAddress === 'string';
} });
export type CreateWithdrawalBody = z.input<typeof createWithdrawalBody>;

/**
 * A plan purchase. The spec's client also sends `_id`, `status`, `userId`, `amount` and `description`: accepted
 * and ignored (the schema strips them); the amount is the plan's price. The plan id is read case-insensitively.
 */
export const createDepositBody = z.object({
  type: z.literal('deposit'),
  plan: z.preprocess(
    (value) => (typeof value === 'string' ? value.trim().toLowerCase() : value),
    z.enum(PACK_IDS, { error: w.planRequired }),
  ),
});
export type CreateDepositBody = z.input<typeof createDepositBody>;

/** POST /api/transactions takes either body, told apart by `type`. */
export const createTransactionBody = z.discriminatedUnion('type', [createDepositBody, createWithdrawalBody], {
  error: w.typeInvalid,
});
export type CreateTransactionBody = z.input<typeof createTransactionBody>;

export const depositResponseSchema = z.object({ transaction: transactionSchema, payment_url: z.string() });
export type DepositResponse = z.infer<typeof depositResponseSchema>;

/**
 * An admin's decision. `completed` is an approval (two admins at or above WITHDRAWAL_DUAL_APPROVAL_USD), or with
 * PAYOUT_PROVIDER=manual the completion itself, which needs the `txHash` of the coin's shape. `reason` says why a
 * withdrawal is failed (shown on its timeline).
 */
export const withdrawalDecisionBody = z.object({
  status: z.enum(['completed', 'failed'], { error: w.decisionInvalid }),
  txHash: z.string({ error: messages.withdrawals.txHashInvalid }).trim().max(200, messages.withdrawals.txHashInvalid).optional(),
  reason: z.string({ error: messages.withdrawals.reasonInvalid }).trim().max(500, messages.withdrawals.reasonInvalid).optional(),
});
export type WithdrawalDecisionBody = z.input<typeof withdrawalDecisionBody>;

export const dashboardSchema = z.object({
  totalAssets: z.number(),
  walletBalance: z.number(),
  /** The active pack's name, or null without one (and once it has ended). */
  membership: z.string().nullable(),
  /** Null without an active membership, and once the last dividend of the membership is due. */
  nextPayout: z.object({ amount: z.number(), time: z.string(), remainingTime: z.number() }).nullable(),
  /** The active membership with its end, or the one that ended last (see membershipViewSchema). */
  currentMembership: membershipViewSchema.nullable(),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

export const performanceQuery = z.object({
  period: z.enum(PROJECTION_PERIODS, { error: 'Period must be one of 1W, 1M, 3M, 1Y, 3Y' }).optional().default('1M'),
});
export const projectionPointSchema = z.object({ date: z.string(), value: z.number() });
export type ProjectionPoint = z.infer<typeof projectionPointSchema>;

/** A transaction as admins see it: with its member (docs/product.md §9.4 Shapes, admin views). */
export const adminTransactionSchema = transactionSchema.extend({
  user: userSummarySchema,
  /** Withdrawals: how many admins approved it so far. */
  approvalsCount: z.number().int().optional(),
});
export type AdminTransaction = z.infer<typeof adminTransactionSchema>;

export const ADMIN_TRANSACTIONS_PAGE_SIZE = 20;

/** The member's own history: 50 a page unless asked otherwise, never more than 100 (docs/product.md, history). */
export const OWN_TRANSACTIONS_PAGE_SIZE = 50;
export const OWN_TRANSACTIONS_MAX_PAGE_SIZE = 100;

/**
 * GET /api/transactions?limit=&cursor=: newest first; the next page's cursor is in `X-Next-Cursor` (absent on
 * the last page). A limit above 100 is refused (400), not quietly cut, so a client never mistakes a short page
 * for the end.
 */
export const ownTransactionsQuery = z.object({
  limit: queryCount(messages.wallet.limitInvalid, OWN_TRANSACTIONS_MAX_PAGE_SIZE, OWN_TRANSACTIONS_PAGE_SIZE),
  // `?cursor=` with nothing after it is the first page, as if it were absent.
  cursor: z.preprocess((value) => (value === '' ? undefined : value), z.string().max(200, messages.admin.cursorInvalid).optional()),
});

/**
 * GET /api/admin/transactions?page=N&search=S. Pages are served by keyset (no OFFSET scan): each answer names
 * the cursor of the next page in `X-Next-Cursor` (and a `Link: rel="next"`); `cursor` takes it back. A page
 * number alone is still accepted.
 */
export const adminTransactionsQuery = z.object({
  page: queryCount(messages.admin.pageInvalid, 1_000_000, 1),
  search: z.string().trim().max(100, messages.admin.searchTooLong).optional().default(''),
  cursor: z.string().max(200, messages.admin.cursorInvalid).optional(),
});

/** Admin dashboard (docs/product.md §7.1 Figures "Admin stats"); growth is percent versus the previous 30 days. */
export const adminStatsSchema = z.object({
  totalUsers: z.number(),
  totalInvestments: z.number(),
  totalDailyPayouts: z.number(),
  monthlyVolume: z.number(),
  userGrowth: z.number(),
  investmentGrowth: z.number(),
});
export type AdminStats = z.infer<typeof adminStatsSchema>;

// Withdrawal confirmation and address book ------------------------------------------------------------------

/** POST /api/withdrawals/confirm: the token from the mailed link (the token is the credential). */
export const confirmWithdrawalBody = z.object({
  token: z
    .string({ error: messages.withdrawals.tokenInvalid })
    .trim()
    .min(1, messages.withdrawals.tokenInvalid)
    .max(200, messages.withdrawals.tokenInvalid),
});
export type ConfirmWithdrawalBody = z.input<typeof confirmWithdrawalBody>;

/** GET /api/users/withdrawal-addresses: the member's confirmed addresses, newest first. */
export const withdrawalAddressSchema = z.object({
  id: z.string(),
  asset: z.string(),
  address: z.string(),
  confirmedAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type WithdrawalAddress = z.infer<typeof withdrawalAddressSchema>;
export const withdrawalAddressListSchema = z.array(withdrawalAddressSchema);

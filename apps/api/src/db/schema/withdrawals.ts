import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { idColumn, instant, timestamps } from './columns';
import { transactions } from './transactions';
import { users, userIdColumn } from './users';

/**
 * What a withdrawal transaction carries beyond the amount (issue "Money out for real"): the coin, the fee, where
 * it is (stage), the mailed confirmation of a new address, and the payout at the provider. One row per
 * `transactions` row of type withdrawal; the timeline is read from its instants and the approvals.
 */
export const withdrawals = pgTable(
  'withdrawals',
  {
    transactionId: uuid('transaction_id')
      .primaryKey()
      .references(() => transactions.id),
    userId: userIdColumn(),
    /** The coin's id; null on a withdrawal requested before coins were named (decided by hand). */
    asset: text('asset'),
    address: text('address').notNull(),
    feeCents: bigint('fee_cents', { mode: 'number' }).notNull(),
    stage: text('stage', {
      enum: ['awaiting_confirmation', 'awaiting_approval', 'waiting_for_provider', 'sent', 'completed', 'failed', 'cancelled'],
    }).notNull(),
    /** The mailed link's token, hashed; cleared once used. */
    confirmTokenHash: text('confirm_token_hash').unique(),
    confirmExpiresAt: instant('confirm_expires_at'),
    confirmedAt: instant('confirmed_at'),
    approvedAt: instant('approved_at'),
    sentAt: instant('sent_at'),
    finishedAt: instant('finished_at'),
    /** Why it failed or was cancelled, in plain words (the timeline's reason). */
    reason: text('reason'),
    /** The payout at the provider: which one, its id there (BTCPay payout id, NOWPayments batch id), its word. */
    payoutProvider: text('payout_provider'),
    payoutId: text('payout_id'),
    payoutState: text('payout_state'),
    payoutCryptoAmount: text('payout_crypto_amount'),
    payoutCryptoCurrency: text('payout_crypto_currency'),
    /** Intermediate ids recorded between provider calls (BTCPay pull payment, NOWPayments batch verified). */
    payoutPullPaymentId: text('payout_pull_payment_id'),
    payoutVerified: boolean('payout_verified').notNull().default(false),
    /** Dispatch: attempts to create the payout, when to try next, the provider's last error, the claim's end. */
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: instant('next_attempt_at'),
    lastError: text('last_error'),
    leaseUntil: instant('lease_until'),
    /** Tracking: when to read the payout at the provider again while it is in flight. */
    nextPollAt: instant('next_poll_at'),
    ...timestamps(),
  },
  (t) => [
    check(
      'withdrawals_stage_check',
      sql`${t.stage} in ('awaiting_confirmation', 'awaiting_approval', 'waiting_for_provider', 'sent', 'completed', 'failed', 'cancelled')`,
    ),
    check('withdrawals_fee_non_negative', sql`${t.feeCents} >= 0`),
    index('withdrawals_user_created_idx').on(t.userId, t.createdAt),
    index('withdrawals_dispatch_idx').on(t.stage, t.nextAttemptAt).where(sql`${t.stage} = 'waiting_for_provider'`),
    index('withdrawals_poll_idx').on(t.stage, t.nextPollAt).where(sql`${t.stage} = 'sent'`),
    index('withdrawals_confirm_expiry_idx').on(t.confirmExpiresAt).where(sql`${t.stage} = 'awaiting_confirmation'`),
  ],
);
export type WithdrawalRow = typeof withdrawals.$inferSelect;

/** One admin's approval of a withdrawal; an admin approves a withdrawal once. */
export const withdrawalApprovals = pgTable(
  'withdrawal_approvals',
  {
    id: idColumn(),
    transactionId: uuid('transaction_id')
      .notNull()
      .references(() => transactions.id),
    adminId: uuid('admin_id')
      .notNull()
      .references(() => users.id),
    createdAt: instant('created_at').notNull(),
  },
  (t) => [uniqueIndex('withdrawal_approvals_once_idx').on(t.transactionId, t.adminId)],
);

/** A member's confirmed addresses, per coin: a withdrawal to one of them needs no mailed confirmation. */
export const withdrawalAddresses = pgTable(
  'withdrawal_addresses',
  {
    id: idColumn(),
    userId: userIdColumn('user_id', { onDelete: 'cascade' }),
    asset: text('asset').notNull(),
    address: text('address').notNull(),
    confirmedAt: instant('confirmed_at').notNull(),
    lastUsedAt: instant('last_used_at'),
  },
  (t) => [uniqueIndex('withdrawal_addresses_once_idx').on(t.userId, t.asset, t.address)],
);
export type WithdrawalAddressRow = typeof withdrawalAddresses.$inferSelect;

/**
 * The built-in sandbox payout provider's own payouts (PAYOUT_PROVIDER=sandbox): kept in the database so that
 * find() sees them across restarts, as a real provider's would be. Each completes at `completesAt`.
 */
export const sandboxPayouts = pgTable('sandbox_payouts', {
  id: text('id').primaryKey(),
  withdrawalId: text('withdrawal_id').notNull().unique(),
  asset: text('asset').notNull(),
  address: text('address').notNull(),
  amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
  txHash: text('tx_hash').notNull(),
  createdAt: instant('created_at').notNull(),
  completesAt: instant('completes_at').notNull(),
});

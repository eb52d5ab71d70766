import { sql } from 'drizzle-orm';
import { bigint, check, index, numeric, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { idColumn, instant, timestamps } from './columns';
import { transactions } from './transactions';
import { users, userIdColumn } from './users';

/**
 * One provider invoice per deposit (docs/product.md §5.4 Payment providers). `state` is our reading of the provider's word: only
 * `settled` activates a pack; `review` means money may have arrived (partial, late, over, mismatched) and an
 * admin decides (modules/payments/payment-review.service.ts). A deposit is settled once: the row is locked
 * while a notification, the reconciliation job or an admin's decision acts on it, and the settlement's journal
 * entry has the idempotency key `deposit:<transaction id>`.
 */
export const paymentInvoices = pgTable(
  'payment_invoices',
  {
    id: idColumn(),
    transactionId: uuid('transaction_id')
      .notNull()
      .references(() => transactions.id),
    userId: userIdColumn(),
    provider: text('provider', { enum: ['sandbox', 'btcpay', 'nowpayments'] }).notNull(),
    /** The provider's invoice id (BTCPay invoice, NOWPayments invoice, sandbox invoice). */
    invoiceId: text('invoice_id').notNull(),
    /** NOWPayments: the payment made under the invoice, learnt from its first notification. */
    paymentId: text('payment_id'),
    pack: text('pack', { enum: ['startium', 'ultimium', 'gold', 'platinum'] }).notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    state: text('state', { enum: ['pending', 'settled', 'expired', 'failed', 'review'] })
      .notNull()
      .default('pending'),
    /** The provider's own status word (with BTCPay's additionalStatus), as last read. */
    rawStatus: text('raw_status').notNull().default('New'),
    reviewReason: text('review_reason', { enum: ['partial', 'late', 'over', 'mismatch'] }),
    /**
     * What arrived, as the provider last reported it when asked (BTCPay: the invoice's payment methods'
     * `totalPaid`; NOWPayments: the payment's `actually_paid`), in the coin it came in (`BTC`, `USDTTRC20`…),
     * beside `amountCents`, what was asked. Null until the provider reports money.
     */
    paidAmount: numeric('paid_amount'),
    paidCurrency: text('paid_currency'),
    /**
     * An admin's decision on a held invoice (review → settled by `activate`, → failed by `reject`): which, by
     * whom, when and why. A decided invoice is never held again, whatever the provider reports later.
     */
    decision: text('decision', { enum: ['activate', 'reject'] }),
    decisionNote: text('decision_note'),
    decidedBy: uuid('decided_by').references(() => users.id),
    decidedAt: instant('decided_at'),
    paymentUrl: text('payment_url').notNull(),
    expiresAt: instant('expires_at'),
    lastCheckedAt: instant('last_checked_at'),
    closedAt: instant('closed_at'),
    ...timestamps(),
  },
  (t) => [
    check('payment_invoices_provider_check', sql`${t.provider} in ('sandbox', 'btcpay', 'nowpayments')`),
    check('payment_invoices_state_check', sql`${t.state} in ('pending', 'settled', 'expired', 'failed', 'review')`),
    check('payment_invoices_amount_positive', sql`${t.amountCents} > 0`),
    check('payment_invoices_decision_check', sql`${t.decision} in ('activate', 'reject')`),
    // An amount names its coin, and no provider reports a negative one.
    check(
      'payment_invoices_paid_complete',
      sql`(${t.paidAmount} is null and ${t.paidCurrency} is null) or (${t.paidAmount} >= 0 and ${t.paidCurrency} is not null)`,
    ),
    // A decision is recorded whole, and only on the state it leads to.
    check(
      'payment_invoices_decision_complete',
      sql`(${t.decision} is null and ${t.decidedAt} is null and ${t.decidedBy} is null)
        or (${t.decision} = 'activate' and ${t.decidedAt} is not null and ${t.state} = 'settled')
        or (${t.decision} = 'reject' and ${t.decidedAt} is not null and ${t.state} = 'failed')`,
    ),
    uniqueIndex('payment_invoices_transaction_unique').on(t.transactionId),
    uniqueIndex('payment_invoices_provider_invoice_unique').on(t.provider, t.invoiceId),
    index('payment_invoices_pending_idx').on(t.createdAt).where(sql`${t.state} = 'pending'`),
    index('payment_invoices_review_idx').on(t.createdAt).where(sql`${t.state} = 'review'`),
  ],
);

/**
 * Every verified notification, once: BTCPay's originalDeliveryId (shared by its retries), NOWPayments'
 * payment_id:payment_status. Recorded in the transaction that acted on it, so a notification whose handling
 * failed is not remembered and its redelivery is handled again.
 */
export const paymentNotifications = pgTable(
  'payment_notifications',
  {
    provider: text('provider', { enum: ['sandbox', 'btcpay', 'nowpayments'] }).notNull(),
    deliveryKey: text('delivery_key').notNull(),
    type: text('type').notNull(),
    invoiceId: text('invoice_id'),
    /** What was done: settled, expired, failed, review, pending, ignored. */
    outcome: text('outcome').notNull(),
    receivedAt: instant('received_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.deliveryKey] })],
);

/** The built-in sandbox provider's own invoices (its checkout page and status API read them). */
export const sandboxInvoices = pgTable(
  'sandbox_invoices',
  {
    id: text('id').primaryKey(),
    orderId: text('order_id').notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    description: text('description').notNull(),
    returnUrl: text('return_url').notNull(),
    status: text('status', { enum: ['New', 'Settled', 'Expired'] }).notNull(),
    createdAt: instant('created_at').notNull(),
    expiresAt: instant('expires_at').notNull(),
    closedAt: instant('closed_at'),
  },
  (t) => [check('sandbox_invoices_status_check', sql`${t.status} in ('New', 'Settled', 'Expired')`)],
);

export type PaymentInvoiceRow = typeof paymentInvoices.$inferSelect;

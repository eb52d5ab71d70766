import { z } from 'zod';
import { messages } from './messages';
import { PACK_IDS, TRANSACTION_STATUSES } from './money';

/**
 * The admin's review of held payments (decisions: "Held payments"). A provider invoice is held (`review`)
 * when money arrived that does not simply pay the pack: it activates nothing until an admin decides.
 */

export const PAYMENT_PROVIDERS = ['sandbox', 'btcpay', 'nowpayments'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

/** Why a payment was held: partial, paid after expiry, over-paid, or amount/currency/order not ours. */
export const REVIEW_REASONS = ['partial', 'late', 'over', 'mismatch'] as const;
export type ReviewReason = (typeof REVIEW_REASONS)[number];

export const PAYMENT_INVOICE_STATES = ['pending', 'settled', 'expired', 'failed', 'review'] as const;

/** `activate` settles the deposit as the provider's "Settled" would; `reject` fails it and moves no money. */
export const REVIEW_DECISIONS = ['activate', 'reject'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

export const REVIEW_NOTE_MAX_LENGTH = 500;

const p = messages.payments;

/** POST /api/admin/payments/{id}/review. A blank note is no note. */
export const reviewDecisionBody = z.object({
  decision: z.enum(REVIEW_DECISIONS, { error: p.decisionInvalid }),
  note: z
    .string({ error: p.noteInvalid })
    .trim()
    .max(REVIEW_NOTE_MAX_LENGTH, p.noteInvalid)
    .optional()
    .transform((note) => note || undefined),
});
export type ReviewDecisionBody = z.input<typeof reviewDecisionBody>;

/**
 * What arrived for a payment, as its provider reports it: a decimal amount (a string, never rounded: coins
 * have more places than cents) of the coin it came in, e.g. `{amount: "0.00512", currency: "BTC"}`.
 */
export const paidAmountSchema = z.object({ amount: z.string(), currency: z.string() });
export type PaidAmount = z.infer<typeof paidAmountSchema>;

/** What arrived, as the screens write it: the amount exactly as the provider wrote it, then its coin ("0.0195 BTC"). */
export const formatPaidAmount = (paid: PaidAmount) => `${paid.amount} ${paid.currency}`;

/**
 * A held payment as the admin sees it (GET /api/admin/payments/review), and the same payment once decided
 * (the answer of the decision): `_id` is our invoice, `providerInvoiceId` the provider's name for it.
 */
export const heldPaymentSchema = z.object({
  _id: z.string(),
  provider: z.enum(PAYMENT_PROVIDERS),
  providerInvoiceId: z.string(),
  /** NOWPayments: the payment made under the invoice; null for the other providers. */
  paymentId: z.string().nullable(),
  pack: z.enum(PACK_IDS),
  /** The pack's price the invoice asked for, in USD. */
  amount: z.number(),
  /** What arrived, as the provider reported it when last asked; null when it reported nothing paid. */
  paid: paidAmountSchema.nullable(),
  state: z.enum(PAYMENT_INVOICE_STATES),
  reviewReason: z.enum(REVIEW_REASONS).nullable(),
  /** The provider's own status word, as last read (BTCPay's with its additionalStatus, e.g. "Expired/PaidPartial"). */
  rawStatus: z.string(),
  createdAt: z.string(),
  /** When the invoice stopped being pending (held, expired or paid). */
  closedAt: z.string().nullable(),
  /** The member's deposit this invoice pays for. */
  transactionId: z.string(),
  transactionStatus: z.enum(TRANSACTION_STATUSES),
  user: z.object({ _id: z.string(), firstName: z.string(), lastName: z.string(), email: z.string() }),
  /** Set once an admin decided: which decision, by whom (admin id), when, and their note. */
  decision: z.enum(REVIEW_DECISIONS).nullable(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  decisionNote: z.string().nullable(),
});
export type HeldPayment = z.infer<typeof heldPaymentSchema>;

/**
 * A pack payment as its member sees it on the wallet's Deposit tab: `pending` (payable: `payment_url` is its
 * checkout), `expired` (not paid in time: buy the pack again), `held` (money arrived that needs an admin),
 * `settled` (the pack was activated), `failed` (the provider reported it invalid, or an admin refused it).
 */
export const PACK_PAYMENT_STATUSES = ['pending', 'expired', 'held', 'settled', 'failed'] as const;
export type PackPaymentStatus = (typeof PACK_PAYMENT_STATUSES)[number];

export const packPaymentSchema = z.object({
  _id: z.string(),
  transactionId: z.string(),
  pack: z.enum(PACK_IDS),
  /** What the pack costs, in USD: what was asked. */
  amount: z.number(),
  /** What arrived, as the provider reported it (shown for a held payment beside `amount`); null when nothing was reported. */
  paid: paidAmountSchema.nullable(),
  status: z.enum(PACK_PAYMENT_STATUSES),
  date: z.string(),
  /** The provider's checkout, only while the payment can still be made. */
  payment_url: z.string().nullable(),
  expiresAt: z.string().nullable(),
});
export type PackPayment = z.infer<typeof packPaymentSchema>;

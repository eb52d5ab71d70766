import type { HeldPayment, PaymentProviderName, ReviewReason } from '@terrafund/contracts';

/** Why a payment was held, in plain words, and what it means for the admin deciding it. */
export const REVIEW_REASON_LABELS: Record<ReviewReason, { label: string; explanation: string }> = {
  partial: { label: 'Partial payment', explanation: 'Less than the pack’s price arrived.' },
  late: { label: 'Paid after expiry', explanation: 'The money arrived after the invoice had expired.' },
  over: { label: 'Over-payment', explanation: 'More than the pack’s price arrived.' },
  mismatch: {
    label: 'Amount, currency or order mismatch',
    explanation: 'The provider reports an amount, currency or order other than the one we asked for.',
  },
};

export const reasonLabel = (reason: ReviewReason | null) => (reason ? REVIEW_REASON_LABELS[reason].label : 'Held for review');

export const PROVIDER_LABELS: Record<PaymentProviderName, string> = {
  sandbox: 'Sandbox',
  btcpay: 'BTCPay Server',
  nowpayments: 'NOWPayments',
};

export const packLabel = (pack: string) => pack.charAt(0).toUpperCase() + pack.slice(1);

export const memberName = (payment: HeldPayment) => `${payment.user.firstName} ${payment.user.lastName}`.trim() || payment.user.email;

import type { HeldPayment, PaymentProviderName, ReviewReason } from '@terrafund/contracts';
import { i18n } from '@/lib/i18n';

/**
 * Why a payment was held, in plain words (admin.payments.reasons), and what it means for the admin deciding it.
 * Read while a component that speaks the admin namespace draws, so they follow the language it draws in.
 */
export const reasonExplanation = (reason: ReviewReason) => i18n.t(`admin:payments.reasons.${reason}.explanation`);

export const reasonLabel = (reason: ReviewReason | null) =>
  reason ? i18n.t(`admin:payments.reasons.${reason}.label`) : i18n.t('admin:payments.heldForReview');

export const PROVIDER_LABELS: Record<PaymentProviderName, string> = {
  sandbox: 'Sandbox',
  btcpay: 'BTCPay Server',
  nowpayments: 'NOWPayments',
};

export const packLabel = (pack: string) => pack.charAt(0).toUpperCase() + pack.slice(1);

export const memberName = (payment: HeldPayment) => `${payment.user.firstName} ${payment.user.lastName}`.trim() || payment.user.email;

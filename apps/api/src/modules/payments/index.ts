/** What other modules and the schedulers may use of payments. */
export { createConfiguredProvider, isSandboxProvider } from './configured-provider';
export { checkDeposits } from './deposit-check';
export { settledInvoicesByProvider } from './payment-figures';
export { GRACE_MS, RECHECK_MS, reconcilePayments, strandedInvoices, type ReconcileResult } from './reconciliation.service';
export type { PaymentDeps } from './payments.service';
export { createDeposit } from './payments.service';
// The provider HTTP and wire helpers, all of them shared with the payout adapters (modules/withdrawals).
export { ProviderHttpError, requestJson } from './http';
export * as wire from './wire';
export type { NotificationHeaders } from './wire';
export type { PaymentProvider, ProviderName } from './provider';
export { btcpaySignedBody } from './btcpay.provider';
export { nowpaymentsSignedPayload } from './nowpayments.provider';
// The composition root's (app.ts, server.ts, the CLI, jobs): its routes.
export { paymentRoutes } from './payments.routes';
export { paymentReviewRoutes } from './payment-review.routes';

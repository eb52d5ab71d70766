/** What other modules and the schedulers may use of payments. */
export { createConfiguredProvider, isSandboxProvider } from './configured-provider';
export { checkDeposits } from './deposit-check';
export { settledInvoicesByProvider } from './payment-figures';
export { GRACE_MS, RECHECK_MS, reconcilePayments, strandedInvoices, type ReconcileResult } from './reconciliation.service';
export type { PaymentDeps } from './payments.service';
export { createDeposit } from './payments.service';
// The provider HTTP and signature helpers, shared with the payout adapters (modules/withdrawals).
export { ProviderHttpError, requestJson } from './http';
export {
  centsToDecimal,
  decimalToCents,
  headerValue,
  hexSignatureMatches,
  hmacHex,
  idString,
  isPlainObject,
  parseJson,
  type NotificationHeaders,
  type PaymentProvider,
  type ProviderName,
} from './provider';
export { nowpaymentsSignature } from './nowpayments.provider';
// The composition root's (app.ts, server.ts, the CLI, jobs): its routes.
export { paymentRoutes } from './payments.routes';
export { paymentReviewRoutes } from './payment-review.routes';

/** What other modules and the schedulers may use of payments. */
export { isSandboxProvider } from './configured-provider';
export { GRACE_MS, RECHECK_MS, reconcilePayments, strandedInvoices, type ReconcileResult } from './reconciliation.service';
export type { PaymentDeps } from './payments.service';
export { createDeposit } from './payments.service';

/** What other modules (and the composition root) may use of withdrawals. */
export { requestWithdrawal, withdrawalAddressesOf, withdrawalDetail, withdrawalTimeline } from './withdrawals.service';
export { withAdminWithdrawalFields, withWithdrawalFields } from './withdrawals.store';
export { handlePayoutNotification, runPayoutJob } from './payouts.service';
export { createConfiguredPayoutProvider } from './configured-payouts';
export type { PayoutProvider } from './payout-provider';
export { checkWithdrawals } from './withdrawal-check';
export { PENDING_WITHDRAWAL, pendingWithdrawals } from './withdrawal-figures';
export { withdrawalRoutes } from './withdrawals.routes';

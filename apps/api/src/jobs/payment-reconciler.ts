import { reconcilePayments, strandedInvoices, type PaymentDeps } from '../modules/payments';
import { startPeriodicJob } from './periodic-job';

/**
 * Every minute (and at start), in the background of the server; stopped on shutdown. What a run does:
 * reconcilePayments (modules/payments/reconciliation.service.ts).
 */
export function startPaymentReconciler(deps: PaymentDeps, options: { intervalMs?: number } = {}) {
  void strandedInvoices(deps)
    .then((count) => {
      if (count > 0) {
        deps.logger.warn(
          { count, provider: deps.paymentProvider.name },
          'pending invoices of another payment provider are not reconciled while PAYMENT_PROVIDER names this one',
        );
      }
    })
    .catch(() => undefined);
  return startPeriodicJob({
    name: 'payment reconciliation',
    intervalMs: options.intervalMs ?? 60_000,
    log: deps.logger,
    async run() {
      const result = await reconcilePayments(deps);
      if (result.checked > 0 || result.abandoned > 0) deps.logger.info(result, 'payment invoices reconciled');
    },
  });
}

import type { Deps } from '../deps';
import { runPayoutJob } from '../modules/withdrawals';
import { startPeriodicJob } from './periodic-job';

/**
 * Every 5 seconds (every second with the sandbox, whose payouts complete a few seconds after they are sent), in the
 * background of the server; stopped on shutdown. A run expires unconfirmed withdrawals past their 30 minutes,
 * retries payouts the provider could not take (each on its own backoff) and reads in-flight payouts that are due
 * (a minute after the last read): modules/withdrawals/payouts.service.ts. Rows are leased or locked one at a time,
 * so several instances may run it together.
 */
export function startWithdrawalPayouts(deps: Deps, options: { intervalMs?: number } = {}) {
  const sandbox = deps.config.withdrawals.payoutProvider === 'sandbox';
  return startPeriodicJob({
    name: 'withdrawal payouts',
    intervalMs: options.intervalMs ?? (sandbox ? 1_000 : 5_000),
    log: deps.logger,
    async run() {
      const result = await runPayoutJob(deps);
      if (result.expired > 0 || result.dispatched > 0) deps.logger.info(result, 'withdrawal payouts run');
    },
  });
}

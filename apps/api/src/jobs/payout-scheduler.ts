import type { Logger } from 'pino';
import type { Database } from '../db/client';
import type { Clock } from '../lib/clock';
import { msUntilNextPayout, runPayouts } from '../modules/payouts';
import { startPeriodicJob } from './periodic-job';

/** A safety net: even if a timer is lost (sleep, clock change), due days are paid within this much time. */
const SWEEP_MS = 15 * 60 * 1000;

/**
 * Runs the payout job at start, at every PAYOUT_TIME, and every 15 minutes as a sweep, then `afterRun` (the end
 * of memberships and its mails, modules/memberships) even when the payouts failed. The job itself pays each
 * membership and business day once however often it runs, here or on another server.
 */
export function startPayoutScheduler(
  db: Database,
  deps: { clock: Clock; payoutTime: string; logger: Logger; /** Runs after each payout run: ends memberships and mails. */ afterRun?: () => Promise<unknown> },
) {
  const { afterRun } = deps;
  return startPeriodicJob({
    name: 'payout run',
    intervalMs: SWEEP_MS,
    nextRunInMs: () => msUntilNextPayout(deps.clock.now(), deps.payoutTime) + 1000,
    log: deps.logger,
    logReason: true,
    async run(reason) {
      const result = await runPayouts(db, { clock: deps.clock, payoutTime: deps.payoutTime });
      if (result.paid > 0) deps.logger.info({ reason, ...result, days: result.days.length }, 'dividends paid');
    },
    after: afterRun && { name: 'membership end run', run: afterRun },
  });
}

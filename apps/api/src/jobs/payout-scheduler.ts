import type { Logger } from 'pino';
import type { Database } from '../db/client';
import type { Clock } from '../lib/clock';
import { parsePayoutTime, runPayouts } from './payouts';

const DAY_MS = 24 * 3600 * 1000;
/** A safety net: even if a timer is lost (sleep, clock change), due days are paid within this much time. */
const SWEEP_MS = 15 * 60 * 1000;

/** Milliseconds from `now` to the next PAYOUT_TIME (UTC). */
export function msUntilNextPayout(now: Date, payoutTime: string): number {
  const minutes = parsePayoutTime(payoutTime);
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + minutes * 60_000;
  const next = today > now.getTime() ? today : today + DAY_MS;
  return next - now.getTime();
}

/**
 * Runs the payout job at start, at every PAYOUT_TIME, and every 15 minutes as a sweep, then `afterRun` (the end
 * of memberships and its mails, jobs/membership-end.ts) even when the payouts failed. The job itself pays
 * each membership and business day once however often it runs, here or on another server.
 */
export function startPayoutScheduler(
  db: Database,
  deps: { clock: Clock; payoutTime: string; logger: Logger; /** Runs after each payout run: ends memberships and mails (jobs/membership-end.ts). */ afterRun?: () => Promise<unknown> },
) {
  let stopped = false;
  let running: Promise<void> | undefined;
  let daily: NodeJS.Timeout | undefined;

  const run = (reason: string) => {
    if (stopped || running) return;
    running = runPayouts(db, { clock: deps.clock, payoutTime: deps.payoutTime })
      .then((result) => {
        if (result.paid > 0) deps.logger.info({ reason, ...result, days: result.days.length }, 'dividends paid');
      })
      .catch((error) => deps.logger.error({ err: error, reason }, 'payout run failed'))
      .then(async () => {
        await deps.afterRun?.();
      })
      .catch((error) => deps.logger.error({ err: error, reason }, 'membership end run failed'))
      .finally(() => {
        running = undefined;
      });
  };

  const armDaily = () => {
    daily = setTimeout(() => {
      run('scheduled');
      armDaily();
    }, msUntilNextPayout(deps.clock.now(), deps.payoutTime) + 1000);
    daily.unref();
  };

  const sweep = setInterval(() => run('sweep'), SWEEP_MS);
  sweep.unref();
  armDaily();
  run('start');

  return {
    async stop() {
      stopped = true;
      clearInterval(sweep);
      if (daily) clearTimeout(daily);
      await running;
    },
  };
}

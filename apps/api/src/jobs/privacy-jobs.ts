import { processDataExports, purgeExpiredExports, purgeExpiredKyc, type ExportDeps } from '../modules/privacy';
import { startPeriodicJob } from './periodic-job';

/** Often enough that an export a restart interrupted is ready within a minute. */
const INTERVAL_MS = 30_000;

/**
 * The privacy rights' background work (issue 34): builds the data exports still pending (the request builds its own
 * right after answering; this finds those a restart or a failure left), deletes export files past their 7 days,
 * and deletes the KYC records and documents of accounts closed more than KYC_RETENTION_DAYS ago. Each part takes
 * its own row locks (leases, SKIP LOCKED), so several servers may run it at once.
 */
export function startPrivacyJobs(deps: ExportDeps) {
  return startPeriodicJob({
    name: 'privacy jobs',
    intervalMs: INTERVAL_MS,
    log: deps.logger,
    async run() {
      const built = await processDataExports(deps);
      const expired = await purgeExpiredExports(deps);
      const purged = await purgeExpiredKyc(deps);
      if (built + expired + purged > 0) deps.logger.info({ built, expired, kycPurged: purged }, 'privacy jobs');
      return built > 0;
    },
  });
}

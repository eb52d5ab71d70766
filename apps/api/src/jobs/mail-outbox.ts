import type { Logger } from 'pino';
import type { Database } from '../db/client';
import type { Clock } from '../lib/clock';
import type { Secrets } from '../lib/crypto';
import { processOutbox, type MailTransport } from '../modules/mail';
import { startPeriodicJob } from './periodic-job';

/**
 * Polls the outbox every few seconds and whenever `kick()` says a mail was just queued, and again at once while
 * a pass sent something. One pass runs at a time in this process; other servers are kept apart by the row
 * leases in processOutbox.
 */
export function startMailWorker(
  db: Database,
  deps: { secrets: Secrets; clock: Clock; transport: MailTransport; from: string; logger: Logger },
  intervalMs = 5000,
) {
  return startPeriodicJob({
    name: 'mail outbox pass',
    intervalMs,
    whileRunning: 'again',
    log: deps.logger,
    run: async () => (await processOutbox(db, deps)).sent > 0,
  });
}
export type MailWorker = ReturnType<typeof startMailWorker>;

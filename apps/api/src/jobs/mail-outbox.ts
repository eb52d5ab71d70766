import type { Logger } from 'pino';
import type { Database } from '../db/client';
import type { Clock } from '../lib/clock';
import type { Secrets } from '../lib/crypto';
import { mailWaitingForServer, processOutbox, releaseWaitingMail, type MailTransport } from '../modules/mail';
import { startPeriodicJob } from './periodic-job';

/** While mail waits for an unreachable server, the server is asked this often whether it answers again. */
const PROBE_EVERY_MS = 15_000;

/**
 * Polls the outbox every few seconds and whenever `kick()` says a mail was just queued, and again at once while
 * a pass sent something. One pass runs at a time in this process; other servers are kept apart by the row
 * leases in processOutbox. Mail that failed because the server could not be reached is sent as soon as it answers
 * again, not only at its next backoff time (up to an hour later): once a mail goes through, or once the server
 * answers a probe (every 15 s while such mail waits).
 */
export function startMailWorker(
  db: Database,
  deps: { secrets: Secrets; clock: Clock; transport: MailTransport; from: string; logger: Logger },
  intervalMs = 5000,
) {
  let lastProbe = 0;
  const serverIsBack = async () => {
    const released = await releaseWaitingMail(db, deps.clock);
    if (released > 0) deps.logger.info({ released }, 'mail server answers again: sending the mail that waited for it');
    return released > 0;
  };
  return startPeriodicJob({
    name: 'mail outbox pass',
    intervalMs,
    whileRunning: 'again',
    log: deps.logger,
    run: async () => {
      const pass = await processOutbox(db, deps);
      if (pass.sent > 0) {
        await serverIsBack();
        return true;
      }
      const now = deps.clock.now().getTime();
      if (pass.failed > 0 || !deps.transport.verify || now - lastProbe < PROBE_EVERY_MS) return false;
      lastProbe = now;
      if (!(await mailWaitingForServer(db, deps.clock))) return false;
      try {
        await deps.transport.verify();
      } catch {
        return false;
      }
      return serverIsBack();
    },
  });
}
export type MailWorker = ReturnType<typeof startMailWorker>;

import type { Logger } from 'pino';
import type { Database } from '../db/client';
import type { Clock } from '../lib/clock';
import type { Secrets } from '../lib/crypto';
import { processOutbox } from '../modules/mail/mail.service';
import type { MailTransport } from '../modules/mail/mail.transport';

/**
 * Polls the outbox every few seconds and whenever `kick()` says a mail was just queued. One pass runs at a
 * time in this process; other servers are kept apart by the row leases in processOutbox.
 */
export function startMailWorker(
  db: Database,
  deps: { secrets: Secrets; clock: Clock; transport: MailTransport; from: string; logger: Logger },
  intervalMs = 5000,
) {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  const pass = async () => {
    do {
      again = false;
      try {
        const { sent } = await processOutbox(db, deps);
        if (sent > 0) again = true;
      } catch (error) {
        deps.logger.error({ err: error }, 'mail outbox pass failed');
      }
    } while (again && !stopped);
  };

  const kick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = pass().finally(() => {
      running = undefined;
    });
  };

  const timer = setInterval(kick, intervalMs);
  timer.unref();
  kick();

  return {
    kick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
export type MailWorker = ReturnType<typeof startMailWorker>;

import type { Logger } from 'pino';

/**
 * Work done after the answer has left: the answer then cannot tell by its timing whether the work found
 * anything (resend-code and forgot-password for known and unknown addresses). Tasks run one at a time in the
 * order they were queued; a failure is logged, never answered. The app drains the queue when it closes, and
 * tests drain it before they look at the mail.
 */
export function createBackgroundTasks(logger: Pick<Logger, 'error'>) {
  let tail: Promise<void> = Promise.resolve();
  return {
    run(name: string, task: () => Promise<void>): void {
      tail = tail.then(task).catch((error: unknown) => logger.error({ err: error, task: name }, 'background task failed'));
    },
    /** Resolves once every task queued so far, and any they queued, has run. */
    async drain(): Promise<void> {
      let seen: Promise<void>;
      do {
        seen = tail;
        await seen;
      } while (seen !== tail);
    },
  };
}
export type BackgroundTasks = ReturnType<typeof createBackgroundTasks>;

import type { Logger } from 'pino';

/** Why a run started: the first run, the interval, the extra time of `nextRunInMs`, or a `kick()`. */
export type RunReason = 'start' | 'sweep' | 'scheduled' | 'kick';

export type PeriodicJobOptions = {
  /** Names the job in its failure log line: "<name> failed". */
  name: string;
  /** A run every `intervalMs`, and one at start. */
  intervalMs: number;
  /**
   * Also a run at a moment computed afresh after each such run (a daily time): the milliseconds until then.
   * A run already going then is not doubled.
   */
  nextRunInMs?: () => number;
  /**
   * Holds a distributed lock (an advisory lock, say) around each run, for work that must not run on two servers
   * at once. The jobs here need none: their work takes its own locks (payout passes, row leases, SKIP LOCKED).
   */
  lock?: (run: () => Promise<void>) => Promise<void>;
  /** The work. Answering `true` means more is waiting: it runs again at once. */
  run: (reason: RunReason) => Promise<boolean | void>;
  /** Runs after each run, failed or not (ending memberships after the payouts); its failure is logged as "<name> failed". */
  after?: { name: string; run: () => Promise<unknown> };
  /** A timer or kick that comes while a run is going: dropped (`skip`, the default), or another run follows (`again`). */
  whileRunning?: 'skip' | 'again';
  /** Logs each failure at error level, with the reason the run started when the job logs reasons. */
  log: Logger;
  logReason?: boolean;
};

export type PeriodicJob = {
  /** Asks for a run now (or, with whileRunning `again`, right after the one going). */
  kick(): void;
  /** No new run starts; answers when the one going has finished. */
  stop(): Promise<void>;
};

/**
 * The one way a job runs in the background of the server: at start, every `intervalMs` (timers that do not keep
 * the process alive), never two runs of it at once in this process, each failure logged and the job going on,
 * stopped with the server (server.ts stops every job on shutdown, and waits for the run going).
 */
export function startPeriodicJob(options: PeriodicJobOptions): PeriodicJob {
  const { log, name } = options;
  let stopped = false;
  let running: Promise<void> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;

  const attempt = async (label: string, reason: RunReason, work: () => Promise<unknown>) => {
    try {
      return await work();
    } catch (error) {
      log.error(options.logReason ? { err: error, reason } : { err: error }, `${label} failed`);
      return undefined;
    }
  };

  const runOnce = async (reason: RunReason) => {
    let more = false;
    const work = async () => {
      more = (await attempt(name, reason, () => options.run(reason))) === true;
      if (options.after) await attempt(options.after.name, reason, options.after.run);
    };
    await (options.lock ? attempt(name, reason, () => options.lock!(work)) : work());
    return more;
  };

  const start = (reason: RunReason) => {
    if (stopped) return;
    if (running) {
      if (options.whileRunning === 'again') again = true;
      return;
    }
    running = (async () => {
      let next = reason;
      do {
        again = false;
        if (await runOnce(next)) again = true;
        next = 'kick';
      } while (again && !stopped);
    })().finally(() => {
      running = undefined;
    });
  };

  const arm = () => {
    if (!options.nextRunInMs) return;
    timer = setTimeout(() => {
      start('scheduled');
      arm();
    }, options.nextRunInMs());
    timer.unref();
  };

  const sweep = setInterval(() => start('sweep'), options.intervalMs);
  sweep.unref();
  arm();
  start('start');

  return {
    kick: () => start('kick'),
    async stop() {
      stopped = true;
      clearInterval(sweep);
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}

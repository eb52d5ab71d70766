import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startPeriodicJob, type PeriodicJobOptions, type RunReason } from './periodic-job';

/** A run that waits until the test lets it finish. */
function gate() {
  let open = () => {};
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe('startPeriodicJob', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const silent = pino({ level: 'silent' });
  const start = (options: Partial<PeriodicJobOptions> & Pick<PeriodicJobOptions, 'run'>) =>
    startPeriodicJob({ name: 'test job', intervalMs: 1_000, log: silent, ...options });

  it('runs at start and every interval, never two runs at once, and not after stop', async () => {
    const reasons: RunReason[] = [];
    let current = gate();
    const job = start({
      run: async (reason) => {
        reasons.push(reason);
        await current.promise;
      },
    });
    expect(reasons).toEqual(['start']);
    await vi.advanceTimersByTimeAsync(3_000); // the first run is still going: the sweeps are dropped
    expect(reasons).toEqual(['start']);
    current.open();
    current = gate();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(reasons).toEqual(['start', 'sweep']);
    const stopped = job.stop();
    current.open();
    await stopped;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(reasons).toEqual(['start', 'sweep']);
  });

  it('logs a failure and goes on; `after` runs even after a failed run', async () => {
    const errors: string[] = [];
    const log = { error: (_: unknown, message: string) => errors.push(message) } as unknown as PeriodicJobOptions['log'];
    let after = 0;
    const job = start({
      log,
      run: async () => {
        throw new Error('down');
      },
      after: {
        name: 'the follow-up',
        run: async () => {
          after += 1;
        },
      },
    });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(errors).toEqual(['test job failed', 'test job failed']);
    expect(after).toBe(2);
    await job.stop();
  });

  it('with whileRunning `again`, runs again after a kick during a run, and at once while it answers true', async () => {
    const reasons: RunReason[] = [];
    const first = gate();
    // The first run is kicked while it goes and has nothing more; the second has more; the third has none.
    const answers = [false, true, false];
    const job = start({
      whileRunning: 'again',
      run: async (reason) => {
        reasons.push(reason);
        if (reasons.length === 1) await first.promise;
        return answers[reasons.length - 1];
      },
    });
    job.kick();
    first.open();
    await vi.advanceTimersByTimeAsync(0);
    expect(reasons).toEqual(['start', 'kick', 'kick']);
    await job.stop();
  });

  it('also runs at the time `nextRunInMs` gives, computed afresh after each', async () => {
    const reasons: RunReason[] = [];
    const job = start({ intervalMs: 60_000, nextRunInMs: () => 10_000, run: async (reason) => void reasons.push(reason) });
    await vi.advanceTimersByTimeAsync(25_000);
    expect(reasons).toEqual(['start', 'scheduled', 'scheduled']);
    await job.stop();
  });

  it('holds the lock around each run', async () => {
    const events: string[] = [];
    const job = start({
      lock: async (run) => {
        events.push('lock');
        await run();
        events.push('unlock');
      },
      run: async () => void events.push('run'),
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(events).toEqual(['lock', 'run', 'unlock']);
    await job.stop();
  });
});

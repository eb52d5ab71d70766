import pino, { type DestinationStream } from 'pino';

type Output = { write(chunk: string): unknown; flushSync(): void };

/**
 * Where the server's log lines go: the lines written during one turn of the event loop leave together, in one
 * synchronous `write` at the end of that turn (setImmediate), in the order they were written.
 *
 * Under load a turn answers many requests, so one system call carries many access lines, and no line waits for a
 * buffer to fill: an idle server's line appears at the end of the turn that wrote it. The write itself is
 * synchronous (pino's default destination, sonic-boom with `sync: true`): sonic-boom's asynchronous mode went
 * through libuv's thread pool for each chunk (a callback, a thread wake-up and a context switch), measured at
 * about 2 µs of a small answer's CPU, and it re-measured its growing chunk for every line (docs/performance.md,
 * "GET /api/config"). A reader that does not keep up (a full pipe) slows the server down rather than letting lines
 * pile up in memory, as pino's default does.
 *
 * Lines still waiting when the process exits (`process.exit` after a fatal error, the end of a shutdown) are
 * written synchronously on the way out.
 */
export class TurnBatchedDestination implements DestinationStream {
  private pending: string[] = [];
  private scheduled = false;

  constructor(private readonly output: Output) {}

  write(line: string): void {
    this.pending.push(line);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.writePending);
    }
  }

  /** Writes what is pending now, and waits for nothing. */
  flushSync(): void {
    this.writePending();
    this.output.flushSync();
  }

  /** pino's `logger.flush(callback)`. */
  flush(callback?: (error?: Error) => void): void {
    try {
      this.flushSync();
      callback?.();
    } catch (error) {
      callback?.(error as Error);
    }
  }

  private readonly writePending = () => {
    this.scheduled = false;
    const lines = this.pending;
    if (lines.length === 0) return;
    this.pending = [];
    this.output.write(lines.length === 1 ? lines[0]! : lines.join(''));
  };
}

let stdout: TurnBatchedDestination | undefined;

/** The process's one stdout destination, shared by every logger that writes there, so their lines keep their order. */
export function stdoutDestination(): TurnBatchedDestination {
  if (!stdout) {
    const destination = new TurnBatchedDestination(pino.destination({ dest: 1, sync: true }));
    process.once('exit', () => destination.flushSync());
    stdout = destination;
  }
  return stdout;
}

import { writeSync } from 'node:fs';
import type { DestinationStream } from 'pino';

/** Where the bytes go: `write` must write them all before it returns (the buffer is reused afterwards). */
type Output = { write(bytes: Buffer): void };

/** Room for about 250 access lines; a turn that writes more writes them in several system calls. */
const BUFFER_BYTES = 64 * 1024;

/**
 * Where the server's log lines go: the lines written during one turn of the event loop leave together, in one
 * synchronous `write` at the end of that turn (setImmediate), in the order they were written.
 *
 * Under load a turn answers many requests, so one system call carries many access lines, and no line waits for a
 * buffer to fill: an idle server's line appears at the end of the turn that wrote it. Each line is encoded into one
 * reused buffer as it is written: pino's lines by `write`, and the access line by its writer itself (`reserve`,
 * then `commit`; plugins/access-log.ts), mostly from bytes it already holds. Keeping each turn's lines as strings
 * and joining them at the end of the turn cost more: the lines, built from many pieces, were flattened from memory
 * gone cold since, joined, then encoded again (docs/performance.md, "GET /api/config").
 *
 * The write is synchronous: an asynchronous one went through libuv's thread pool for each chunk (a callback, a
 * thread wake-up and a context switch, about 2 µs of a small answer's CPU). A reader that does not keep up (a full
 * pipe) slows the server down rather than letting lines pile up in memory.
 *
 * Lines still waiting when the process exits (`process.exit` after a fatal error, the end of a shutdown) are
 * written synchronously on the way out.
 */
export class TurnBatchedDestination implements DestinationStream {
  /** The pending bytes, up to the offset `reserve` returns; valid until the next `write`, `reserve` or flush. */
  buffer = Buffer.allocUnsafe(BUFFER_BYTES);
  private length = 0;
  private scheduled = false;

  constructor(private readonly output: Output) {}

  /** A line from pino (or anyone): at most three bytes of UTF-8 for each UTF-16 unit. */
  write(line: string): void {
    const offset = this.reserve(line.length * 3);
    this.commit(offset + this.buffer.write(line, offset));
  }

  /**
   * Room for a line of at most `maxBytes` bytes, which the caller writes into `buffer` from the offset returned
   * and then hands over with `commit(end)`.
   */
  reserve(maxBytes: number): number {
    if (this.length + maxBytes > this.buffer.length) {
      this.writePending();
      if (maxBytes > this.buffer.length) this.buffer = Buffer.allocUnsafe(maxBytes);
    }
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.writePending);
    }
    return this.length;
  }

  /** The line written since `reserve` ends at `end`. */
  commit(end: number): void {
    this.length = end;
  }

  /** Writes what is pending now, and waits for nothing. */
  flushSync(): void {
    this.writePending();
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
    if (this.length === 0) return;
    const pending = this.buffer.subarray(0, this.length);
    this.length = 0;
    this.output.write(pending);
    // A line that needed a larger buffer (a long stack trace) does not keep it.
    if (this.buffer.length > BUFFER_BYTES) this.buffer = Buffer.allocUnsafe(BUFFER_BYTES);
  };
}

/** Waits `ms` milliseconds without returning to the event loop. */
const sleepSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * A file descriptor written synchronously, whole: a partial write goes on from where it stopped, and a pipe
 * that is full (EAGAIN, when the descriptor is non-blocking) is tried again shortly, as pino's destination does.
 * Any other error is thrown, as pino's destination throws it.
 */
export const fdOutput = (fd: number): Output => ({
  write(bytes) {
    for (let offset = 0; offset < bytes.length; ) {
      try {
        offset += writeSync(fd, bytes, offset, bytes.length - offset);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'EAGAIN' && code !== 'EBUSY') throw error;
        sleepSync(10);
      }
    }
  },
});

let stdout: TurnBatchedDestination | undefined;

/** The process's one stdout destination, shared by every logger that writes there, so their lines keep their order. */
export function stdoutDestination(): TurnBatchedDestination {
  if (!stdout) {
    const destination = new TurnBatchedDestination(fdOutput(1));
    process.once('exit', () => destination.flushSync());
    stdout = destination;
  }
  return stdout;
}

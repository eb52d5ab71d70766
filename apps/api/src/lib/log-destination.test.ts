import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TurnBatchedDestination } from './log-destination';

/** A destination over an output that records each write it is handed. */
function recorded() {
  const writes: string[] = [];
  const destination = new TurnBatchedDestination({ write: (bytes: Buffer) => writes.push(bytes.toString()) });
  return { destination, writes };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('the log destination', () => {
  it('writes the lines of one turn of the event loop together, in order, at the end of the turn', async () => {
    const { destination, writes } = recorded();
    destination.write('a\n');
    destination.write('b\n');
    destination.write('c\n');
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toEqual(['a\nb\nc\n']);
    destination.write('d\n');
    await nextTurn();
    expect(writes).toEqual(['a\nb\nc\n', 'd\n']);
    await nextTurn();
    expect(writes).toHaveLength(2);
  });

  it('writes what is pending at once on flushSync and on flush, and then nothing twice', async () => {
    const { destination, writes } = recorded();
    destination.write('a\n');
    destination.flushSync();
    expect(writes).toEqual(['a\n']);
    destination.write('b\n');
    const flushed = new Promise<void>((resolve, reject) => destination.flush((error) => (error ? reject(error) : resolve())));
    expect(writes).toEqual(['a\n', 'b\n']);
    await flushed;
    await nextTurn();
    expect(writes).toEqual(['a\n', 'b\n']);
  });

  it('writes lines in UTF-8, and lines encoded by their writer between the others, in order', async () => {
    const { destination, writes } = recorded();
    destination.write('é 中文 😀\n');
    const at = destination.reserve(16);
    destination.commit(at + destination.buffer.write('raw\n', at, 'latin1'));
    destination.write('\ud800 lone\n');
    await nextTurn();
    expect(writes).toEqual(['é 中文 😀\nraw\n\ufffd lone\n']);
  });

  it('writes the lines pending first when a turn writes more than its buffer holds, and takes a line longer than it', async () => {
    const { destination, writes } = recorded();
    const line = `${'x'.repeat(999)}\n`;
    for (let i = 0; i < 100; i += 1) destination.write(line);
    const long = `${'y'.repeat(300_000)}\n`;
    destination.write(long);
    destination.write('last\n');
    await nextTurn();
    expect(writes.length).toBeGreaterThan(2);
    expect(writes.join('')).toBe(line.repeat(100) + long + 'last\n');
    for (const chunk of writes.slice(0, -2)) expect(chunk.length).toBeLessThanOrEqual(64 * 1024);
  });

  it('writes every byte into a pipe that is full and non-blocking, waiting for its reader', async () => {
    // Using process.stdout makes a piped stdout non-blocking; the reader starts late, so writes meet EAGAIN.
    const script = [
      "import { stdoutDestination } from './log-destination.ts';",
      'process.stdout;',
      'const destination = stdoutDestination();',
      'const line = "x".repeat(1023) + "\\n";',
      'for (let i = 0; i < 4096; i += 1) destination.write(line);',
      'destination.flushSync();',
      'process.stderr.write("done");',
    ].join('\n');
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: path.dirname(import.meta.filename),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pause();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    let bytes = 0;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (bytes += chunk.length));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.resume();
    const status = await new Promise((resolve) => child.on('close', resolve));
    expect({ status, stderr, bytes }).toEqual({ status: 0, stderr: 'done', bytes: 4096 * 1024 });
  });

  it('still writes the lines of the last turn when the process exits at once (process.exit after logging an error)', () => {
    const script = [
      "import { createLogger } from './logger.ts';",
      'const logger = createLogger({ level: "info" });',
      'for (let i = 0; i < 3; i += 1) logger.info({ i }, "line");',
      'logger.error("exiting");',
      'process.exit(3);',
    ].join('\n');
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: path.dirname(import.meta.filename),
      encoding: 'utf8',
    });
    expect(run.status).toBe(3);
    const lines = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as { msg: string; i?: number });
    expect(lines.map((line) => [line.msg, line.i])).toEqual([
      ['line', 0],
      ['line', 1],
      ['line', 2],
      ['exiting', undefined],
    ]);
  });
});

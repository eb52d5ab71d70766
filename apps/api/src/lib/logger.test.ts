import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { Writable } from 'node:stream';
import Fastify, { LogController, type FastifyBaseLogger } from 'fastify';
import pino, { type Logger } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyChildLoggerFactory, secureLogger } from './logger';

/** Every line a logger at `level` writes, parsed, without its time. */
function capture(level = 'info') {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        const { time: _time, ...rest } = JSON.parse(line) as Record<string, unknown>;
        lines.push(rest);
      }
      done();
    },
  });
  return { lines, logger: pino({ level }, stream) };
}

/** An app logging as buildApp does (redaction, no request lines), with Fastify's own child loggers or the lazy ones. */
async function appLogging(lazy: boolean) {
  const log = capture();
  const app = Fastify({
    loggerInstance: secureLogger(log.logger) as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    ...(lazy ? { childLoggerFactory: lazyChildLoggerFactory } : {}),
  });
  app.get('/quiet', async () => ({ ok: true }));
  app.get('/talk', async (request) => {
    request.log.debug('below the level');
    request.log.info({ headers: { authorization: 'Bearer s3cret' }, body: { password: 'hunter22' } }, 'checking');
    request.log.child({ step: 'payment' }).warn({ query: { token: 'abc123' } }, 'nested');
    request.log.error(new Error('failed'));
    return { level: request.log.level };
  });
  await app.ready();
  return { app, lines: log.lines };
}

describe('the lazy request logger', () => {
  const apps: Awaited<ReturnType<typeof appLogging>>['app'][] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });

  it('writes the lines Fastify’s own child logger writes: request id, redaction, nested children, levels', async () => {
    const eager = await appLogging(false);
    const lazy = await appLogging(true);
    apps.push(eager.app, lazy.app);
    for (const { app } of [eager, lazy]) {
      const response = await app.inject({ method: 'GET', url: '/talk' });
      expect(response.json()).toEqual({ level: 'info' });
    }
    const strip = (lines: Record<string, unknown>[]) => lines.map(({ pid: _pid, hostname: _host, err, ...rest }) => ({ ...rest, err: err && { ...(err as object), stack: undefined } }));
    expect(strip(lazy.lines)).toEqual(strip(eager.lines));
    expect(lazy.lines.map((line) => [line.msg, line.reqId])).toEqual([
      ['checking', 'req-1'],
      ['nested', 'req-1'],
      ['failed', 'req-1'],
    ]);
    const text = JSON.stringify(lazy.lines);
    expect(text).not.toMatch(/s3cret|hunter22|abc123/);
    expect(lazy.lines[0]).toMatchObject({ headers: { authorization: '[redacted]' }, body: { password: '[redacted]' } });
    expect(lazy.lines[1]).toMatchObject({ step: 'payment', query: { token: '[redacted]' } });
  });

  it('makes the child logger only for a request that logs, once', async () => {
    const { app, lines } = await appLogging(true);
    apps.push(app);
    const child = vi.spyOn(app.log, 'child');
    expect((await app.inject({ method: 'GET', url: '/quiet' })).statusCode).toBe(200);
    expect(child).not.toHaveBeenCalled();
    expect(lines).toEqual([]);

    expect((await app.inject({ method: 'GET', url: '/talk' })).statusCode).toBe(200);
    // Pino's children inherit the spied method, so the nested child of the route shows here too.
    expect(child.mock.calls).toEqual([[{ reqId: 'req-2' }, {}], [{ step: 'payment' }, undefined]]);
  });

  it('is every member of the child it stands for: level checks, bindings, flush, level changes, events', async () => {
    const parent = secureLogger(capture().logger) as unknown as FastifyBaseLogger;
    const lazy = lazyChildLoggerFactory(parent, { reqId: 'req-7' }, {}) as unknown as Logger;
    const eager = parent.child({ reqId: 'req-7' }, {}) as unknown as Logger;
    // Every member a pino child has, its prototype's included: the same kind of thing, and the same value if not a function.
    const members = new Set<string>();
    for (let object: object | null = eager; object && object !== Object.prototype; object = Object.getPrototypeOf(object) as object | null) {
      for (const key of Object.getOwnPropertyNames(object)) members.add(key);
    }
    expect(members.size).toBeGreaterThan(20);
    for (const member of members) {
      if (member === 'constructor') continue;
      const mine = (lazy as unknown as Record<string, unknown>)[member];
      const theirs = (eager as unknown as Record<string, unknown>)[member];
      expect(typeof mine, member).toBe(typeof theirs);
      if (typeof theirs !== 'function' && typeof theirs !== 'object') expect(mine, member).toEqual(theirs);
      expect(member in lazy, member).toBe(true);
    }
    expect(lazy.bindings()).toEqual({ reqId: 'req-7' });
    expect(lazy.isLevelEnabled('info')).toBe(true);
    expect(lazy.isLevelEnabled('debug')).toBe(false);
    lazy.level = 'debug';
    expect([lazy.level, lazy.levelVal, lazy.isLevelEnabled('debug')]).toEqual(['debug', 20, true]);
    lazy.setBindings({ step: 'two' });
    expect(lazy.bindings()).toEqual({ reqId: 'req-7', step: 'two' });
    await new Promise<void>((resolve, reject) => lazy.flush((error) => (error ? reject(error) : resolve())));
    const levels: string[] = [];
    lazy.on('level-change', (label) => levels.push(label));
    lazy.level = 'warn';
    expect(levels).toEqual(['warn']);
  });
});

describe('the server’s log destination (standard output)', () => {
  const cwd = path.dirname(import.meta.filename);
  const script = (lines: string[]) => ['--import', 'tsx', '--input-type=module', '-e', lines.join('\n')];

  it('writes every line into a pipe that is full and non-blocking, waiting for its reader', async () => {
    // Using process.stdout makes a piped stdout non-blocking; the reader starts late, so writes meet EAGAIN.
    const child = spawn(
      process.execPath,
      script([
        "import { createLogger } from './logger.ts';",
        'process.stdout;',
        'const logger = createLogger({ level: "info" });',
        'const text = "x".repeat(1000);',
        'for (let i = 0; i < 4096; i += 1) logger.info({ i, text }, "line");',
        'process.stderr.write("done");',
      ]),
      { cwd, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stdout.pause();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.resume();
    const status = await new Promise((resolve) => child.on('close', resolve));
    const lines = stdout.trim().split('\n').map((line) => JSON.parse(line) as { i: number });
    expect({ status, stderr, lines: lines.length }).toEqual({ status: 0, stderr: 'done', lines: 4096 });
    expect(lines.every((line, i) => line.i === i)).toBe(true);
  });

  it('writes the line of an idle process within a moment, without waiting for more', async () => {
    const child = spawn(
      process.execPath,
      script(["import { createLogger } from './logger.ts';", 'createLogger({ level: "info" }).info("alone");', 'setTimeout(() => {}, 5000);']),
      { cwd, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const line = await new Promise<string>((resolve) => child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString())));
      expect(JSON.parse(line)).toMatchObject({ msg: 'alone' });
    } finally {
      child.kill();
    }
  });

  it('still writes the last lines when the process exits at once (process.exit after logging an error)', () => {
    const run = spawnSync(
      process.execPath,
      script([
        "import { createLogger } from './logger.ts';",
        'const logger = createLogger({ level: "info" });',
        'for (let i = 0; i < 3; i += 1) logger.info({ i }, "line");',
        'logger.error("exiting");',
        'process.exit(3);',
      ]),
      { cwd, encoding: 'utf8' },
    );
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

import { Writable } from 'node:stream';
import Fastify, { LogController, type FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonString, lazyChildLoggerFactory, requestJson, requestSerializer, secureLogger } from './logger';

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
});

describe('the access line’s request part', () => {
  it('is JSON.stringify of the request serializer’s object, with every field or without some', () => {
    const socket = { remotePort: 51_234 };
    const requests = [
      { method: 'GET', url: '/api/config', host: '127.0.0.1:3000', ip: '127.0.0.1', socket },
      { method: 'POST', url: '/api/users/reset-password?token=abc&x=1', host: 'terrafund.example', ip: '2001:db8::1', socket },
      { method: 'GET', url: '/nowhere/"quoted"\\path\u2028', host: 'bücher.example', ip: '203.0.113.9', socket },
      { method: 'GET', url: '/api/config', host: 'h', ip: '127.0.0.1', socket: {} },
      { method: 'GET', url: '/api/config', ip: '127.0.0.1', socket },
      {},
    ];
    for (const request of requests) {
      expect(requestJson(request)).toBe(JSON.stringify(requestSerializer(request)));
    }
    expect(JSON.parse(requestJson(requests[1]!))).toMatchObject({ url: '/api/users/reset-password?[redacted]' });
  });
});

describe('a JSON string', () => {
  it('is what JSON.stringify writes, for text that needs escaping or not', () => {
    const texts = ['', 'req-12', '/api/config', 'a"b', 'a\\b', 'tab\there', 'nul\u0000', '\u001f', '\u007f', 'é ü 中文', '😀', '\ud800 lone', 'x\udc00', '\u2028\u2029', '</script>'];
    for (const text of texts) expect(jsonString(text), JSON.stringify(text)).toBe(JSON.stringify(text));
  });
});

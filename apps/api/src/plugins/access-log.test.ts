import http from 'node:http';
import { Writable } from 'node:stream';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyServerOptions } from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { lazyChildLoggerFactory, secureLogger } from '../lib/logger';
import { registerAccessLog } from './access-log';

/** An app logging as buildApp does, its lines kept as written. */
async function appWithAccessLog(level = 'info', options: Pick<FastifyServerOptions, 'genReqId'> = {}) {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split(/(?<=\n)/));
      done();
    },
  });
  const logger = pino({ level }, stream);
  const app = Fastify({
    loggerInstance: secureLogger(logger) as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyChildLoggerFactory,
    ...options,
  });
  registerAccessLog(app);
  app.get('/api/things', async () => ({ ok: true }));
  app.post('/api/things', async (_request, reply) => reply.status(201).send({ ok: true }));
  app.get('/api/slow', async () => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return { ok: true };
  });
  await app.ready();
  return { app, lines };
}

const requests = [
  { method: 'GET', url: '/api/things' },
  { method: 'GET', url: '/api/things?token=abc123&sig=x' },
  { method: 'HEAD', url: '/api/things' },
  { method: 'POST', url: '/api/things', payload: { a: 1 } },
  { method: 'GET', url: '/nowhere/"quoted"\\path' },
  { method: 'GET', url: '/api/things', headers: { host: 'ex"ample.test:8080', 'x-forwarded-for': '203.0.113.9' } },
  { method: 'GET', url: '/api/things', headers: { host: 'bücher.example' } },
] as const;

describe('access log', () => {
  it('writes one line per request: request id, request without its query string, status, time taken', async () => {
    const built = await appWithAccessLog();
    for (const request of requests) await built.app.inject(request);
    expect(built.lines).toHaveLength(requests.length);
    for (const line of built.lines) {
      expect(line.endsWith('}\n')).toBe(true);
      const parsed = JSON.parse(line) as Record<string, unknown>;
      expect(parsed).toMatchObject({ level: 30, msg: 'request completed', reqId: expect.stringMatching(/^req-/) });
      expect(typeof parsed.time).toBe('number');
      expect(typeof parsed.responseTime).toBe('number');
      // Milliseconds to the microsecond, as a JSON number (pino writes no trailing zeros).
      expect(line).toMatch(/,"responseTime":\d+(?:\.\d{1,3})?,/);
      expect(Object.keys(parsed)).toEqual(['level', 'time', 'pid', 'hostname', 'reqId', 'req', 'res', 'responseTime', 'msg']);
      expect(Object.keys(parsed.req as object)).toEqual(['method', 'url', 'host', 'remoteAddress']);
    }
    expect(JSON.parse(built.lines[1]!)).toMatchObject({ req: { method: 'GET', url: '/api/things?[redacted]' }, res: { statusCode: 200 } });
    expect(JSON.parse(built.lines[3]!)).toMatchObject({ req: { method: 'POST' }, res: { statusCode: 201 } });
    expect(JSON.parse(built.lines[4]!)).toMatchObject({ req: { url: '/nowhere/%22quoted%22/path' }, res: { statusCode: 404 } });
    expect(JSON.parse(built.lines[5]!)).toMatchObject({ req: { host: 'ex"ample.test:8080' } });
    expect(JSON.parse(built.lines[6]!)).toMatchObject({ req: { host: 'bücher.example' } });
  });

  it('writes each request’s own line over a real connection, one request after another on a kept-alive connection', async () => {
    // A change of path, host, method or status on the same connection must show, and so must a request id that
    // needs escaping.
    const sequence = [
      { method: 'GET', path: '/api/things?code=123456', host: 'api.example:8080' },
      { method: 'GET', path: '/api/things?code=123456', host: 'api.example:8080' },
      { method: 'GET', path: '/api/things', host: 'api.example:8080' },
      { method: 'GET', path: '/api/things', host: 'other.example' },
      { method: 'POST', path: '/api/things', host: 'other.example' },
      { method: 'GET', path: '/api/t%C3%BCr"e', host: 'other.example' },
      { method: 'GET', path: '/api/things', host: 'b\u00fccher.example' },
      { method: 'GET', path: '/api/things', host: 'other.example' },
    ];
    let ids = 0;
    const odd = ['plain', 'with"quote', 'tab\there', 'caf\u00e9', 'back\\slash', 'plain'];
    const genReqId = () => odd[ids++ % odd.length]!;
    const run = async () => {
      ids = 0;
      const built = await appWithAccessLog('info', { genReqId });
      await built.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = built.app.server.address() as { port: number };
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      for (const { method, path: url, host } of sequence) {
        await new Promise<void>((resolve, reject) => {
          const headers = method === 'POST' ? { host, 'content-type': 'application/json' } : { host };
          const request = http.request({ port, host: '127.0.0.1', method, path: url, agent, headers }, (response) => {
            response.resume();
            response.on('end', resolve);
          });
          request.on('error', reject);
          request.end(method === 'POST' ? '{}' : undefined);
        });
      }
      agent.destroy();
      await built.app.close();
      return built.lines.filter((line) => line.includes('"request completed"'));
    };
    const viaPino = await run();
    expect(viaPino).toHaveLength(sequence.length);
    const ports = new Set(viaPino.map((line) => /"remotePort":(\d+)/.exec(line)![1]));
    expect(ports.size).toBe(1);
    for (const line of viaPino) {
      expect(Object.keys((JSON.parse(line) as { req: object }).req)).toEqual(['method', 'url', 'host', 'remoteAddress', 'remotePort']);
    }
    expect(viaPino.map((line) => JSON.parse(line) as { reqId: string; req: { url: string; host: string }; res: { statusCode: number } })).toMatchObject([
      { reqId: 'plain', req: { url: '/api/things?[redacted]', host: 'api.example:8080' } },
      { reqId: 'with"quote' },
      { reqId: 'tab\there', req: { url: '/api/things' } },
      { reqId: 'caf\u00e9', req: { host: 'other.example' } },
      { reqId: 'back\\slash', res: { statusCode: 201 } },
      { req: { url: '/api/t%C3%BCr"e' }, res: { statusCode: 404 } },
      { req: { host: 'b\u00fccher.example' } },
      { req: { host: 'other.example' } },
    ]);
  });

  it('writes the response time in milliseconds to the microsecond', async () => {
    const built = await appWithAccessLog();
    for (let i = 0; i < 5; i += 1) await built.app.inject({ method: 'GET', url: '/api/slow' });
    for (const line of built.lines) {
      const { responseTime } = JSON.parse(line) as { responseTime: number };
      expect(responseTime).toBeGreaterThanOrEqual(4);
      expect(Math.abs(responseTime * 1000 - Math.round(responseTime * 1000))).toBeLessThan(1e-6);
    }
  });

  it('writes nothing below its level', async () => {
    const quiet = await appWithAccessLog('warn');
    await quiet.app.inject({ method: 'GET', url: '/api/things' });
    expect(quiet.lines).toEqual([]);
  });

  it('runs the observers it is given after each answer, with the request and its reply', async () => {
    const seen: string[] = [];
    const app = Fastify({ loggerInstance: pino({ level: 'silent' }) as FastifyBaseLogger });
    registerAccessLog(app, [(request, reply) => seen.push(`${request.method} ${request.url} ${reply.statusCode}`)]);
    app.get('/api/things', async () => ({ ok: true }));
    await app.inject({ method: 'GET', url: '/api/things' });
    await app.inject({ method: 'GET', url: '/nowhere' });
    expect(seen).toEqual(['GET /api/things 200', 'GET /nowhere 404']);
  });
});

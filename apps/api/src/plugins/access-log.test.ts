import http from 'node:http';
import { Writable } from 'node:stream';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyServerOptions } from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { TurnBatchedDestination } from '../lib/log-destination';
import { lazyChildLoggerFactory, secureLogger } from '../lib/logger';
import { milliseconds, registerAccessLog } from './access-log';

/**
 * How the app's lines are written: through pino (its logger has a mixin, which adds nothing but sends every line
 * through pino), as a string to a plain stream, or as bytes into the server's own destination (the lines of each
 * turn arrive at its end).
 */
type Path = 'pino' | 'string' | 'bytes';

/** An app logging as buildApp does, its lines kept as written. */
async function appWithAccessLog(path: Path, level = 'info', options: Pick<FastifyServerOptions, 'genReqId'> = {}) {
  const lines: string[] = [];
  const keep = (chunk: Buffer) => lines.push(...chunk.toString().split(/(?<=\n)/));
  const stream =
    path === 'bytes'
      ? new TurnBatchedDestination({ write: keep })
      : new Writable({
          write(chunk: Buffer, _encoding, done) {
            keep(chunk);
            done();
          },
        });
  const logger = pino({ level, ...(path === 'pino' ? { mixin: () => ({}) } : {}) }, stream);
  const app = Fastify({
    loggerInstance: secureLogger(logger) as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyChildLoggerFactory,
    ...options,
  });
  registerAccessLog(app);
  app.get('/api/things', async () => ({ ok: true }));
  app.post('/api/things', async (_request, reply) => reply.status(201).send({ ok: true }));
  await app.ready();
  return { app, lines };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

const requests = [
  { method: 'GET', url: '/api/things' },
  { method: 'GET', url: '/api/things?token=abc123&sig=x' },
  { method: 'HEAD', url: '/api/things' },
  { method: 'POST', url: '/api/things', payload: { a: 1 } },
  { method: 'GET', url: '/nowhere/"quoted"\\path' },
  { method: 'GET', url: '/api/things', headers: { host: 'ex"ample.test:8080', 'x-forwarded-for': '203.0.113.9' } },
  { method: 'GET', url: '/api/things', headers: { host: 'bücher.example' } },
] as const;

/** The line without what differs between two runs (its time and the measured response time). */
const comparable = (line: string) => line.replace(/,"time":\d+/, '').replace(/,"responseTime":[\d.e-]+/, '');

describe('access log', () => {
  it('writes, byte for byte, the line pino writes for the same request', async () => {
    const viaPino = await appWithAccessLog('pino');
    for (const path of ['string', 'bytes'] as const) {
      const built = await appWithAccessLog(path);
      for (const request of requests) await built.app.inject(request);
      await nextTurn();
      expect(built.lines).toHaveLength(requests.length);
      if (path === 'string') for (const request of requests) await viaPino.app.inject(request);
      expect(built.lines.map(comparable)).toEqual(viaPino.lines.map(comparable));
      for (const line of built.lines) {
        expect(line.endsWith('}\n')).toBe(true);
        const parsed = JSON.parse(line) as Record<string, unknown>;
        expect(parsed).toMatchObject({ level: 30, msg: 'request completed', reqId: expect.stringMatching(/^req-/) });
        expect(typeof parsed.time).toBe('number');
        expect(typeof parsed.responseTime).toBe('number');
        expect(line).toMatch(/,"responseTime":\d+\.\d{3},/);
      }
      expect(JSON.parse(built.lines[1]!)).toMatchObject({ req: { method: 'GET', url: '/api/things?[redacted]' }, res: { statusCode: 200 } });
      expect(JSON.parse(built.lines[3]!)).toMatchObject({ req: { method: 'POST' }, res: { statusCode: 201 } });
      expect(JSON.parse(built.lines[4]!)).toMatchObject({ req: { url: '/nowhere/%22quoted%22/path' }, res: { statusCode: 404 } });
      expect(JSON.parse(built.lines[5]!)).toMatchObject({ req: { host: 'ex"ample.test:8080' } });
    }
  });

  it('writes the same lines as pino for requests over real connections, one after another on a kept-alive connection', async () => {
    // The bytes path keeps each connection's request part and each status: a change of path, host, method or
    // status on the same connection must show, and so must a request id that needs escaping.
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
    const run = async (path: Path) => {
      ids = 0;
      const built = await appWithAccessLog(path, 'info', { genReqId });
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
      await nextTurn();
      return built.lines.filter((line) => line.includes('"request completed"'));
    };
    const viaPino = await run('pino');
    const ports = new Set(viaPino.map((line) => /"remotePort":(\d+)/.exec(line)![1]));
    expect(ports.size).toBe(1);
    const withoutPort = (line: string) => comparable(line).replace(/"remotePort":\d+/, '');
    for (const path of ['string', 'bytes'] as const) {
      const built = await run(path);
      expect(built).toHaveLength(sequence.length);
      expect(built.map(withoutPort)).toEqual(viaPino.map(withoutPort));
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

  it('writes the response time in milliseconds to the microsecond', () => {
    expect([2.862984999999753, 0, 0.0004, 0.0005, 12, 7.1, 1234.56789].map(milliseconds)).toEqual([
      '2.863',
      '0.000',
      '0.000',
      '0.001',
      '12.000',
      '7.100',
      '1234.568',
    ]);
    expect(JSON.parse(milliseconds(0.05))).toBe(0.05);
    expect(milliseconds(Number.NaN)).toBe('null');
    expect(milliseconds(5e9)).toBe('5000000000');
  });

  it('writes nothing below its level', async () => {
    for (const path of ['string', 'bytes'] as const) {
      const quiet = await appWithAccessLog(path, 'warn');
      await quiet.app.inject({ method: 'GET', url: '/api/things' });
      await nextTurn();
      expect(quiet.lines).toEqual([]);
    }
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

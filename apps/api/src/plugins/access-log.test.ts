import { Writable } from 'node:stream';
import Fastify, { LogController, type FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { lazyChildLoggerFactory, secureLogger } from '../lib/logger';
import { milliseconds, registerAccessLog } from './access-log';

/** An app logging as buildApp does, its lines kept as written; `throughPino` gives its logger a mixin (which adds nothing). */
async function appWithAccessLog(throughPino: boolean, level = 'info') {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split(/(?<=\n)/));
      done();
    },
  });
  const logger = pino({ level, ...(throughPino ? { mixin: () => ({}) } : {}) }, stream);
  const app = Fastify({
    loggerInstance: secureLogger(logger) as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyChildLoggerFactory,
  });
  registerAccessLog(app);
  app.get('/api/things', async () => ({ ok: true }));
  app.post('/api/things', async (_request, reply) => reply.status(201).send({ ok: true }));
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

/** The line without what differs between two runs (its time and the measured response time). */
const comparable = (line: string) => line.replace(/,"time":\d+/, '').replace(/,"responseTime":[\d.e-]+/, '');

describe('access log', () => {
  it('writes, byte for byte, the line pino writes for the same request', async () => {
    const built = await appWithAccessLog(false);
    const viaPino = await appWithAccessLog(true);
    for (const request of requests) {
      await built.app.inject(request);
      await viaPino.app.inject(request);
    }
    expect(built.lines).toHaveLength(requests.length);
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
  });

  it('writes the same line for a request over a real connection (address and port)', async () => {
    const built = await appWithAccessLog(false);
    const viaPino = await appWithAccessLog(true);
    for (const { app } of [built, viaPino]) {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address() as { port: number };
      await (await fetch(`http://127.0.0.1:${address.port}/api/things?code=123456`)).text();
      await app.close();
    }
    const withoutPort = (line: string) => comparable(line).replace(/"remotePort":\d+/, '').replace(/"host":"127.0.0.1:\d+"/, '');
    const accessLines = (lines: string[]) => lines.filter((line) => line.includes('"request completed"'));
    expect(accessLines(built.lines)).toHaveLength(1);
    expect(accessLines(built.lines).map(withoutPort)).toEqual(accessLines(viaPino.lines).map(withoutPort));
    expect(JSON.parse(accessLines(built.lines)[0]!)).toMatchObject({
      req: { url: '/api/things?[redacted]', remoteAddress: '127.0.0.1', remotePort: expect.any(Number) },
    });
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
    const quiet = await appWithAccessLog(false, 'warn');
    await quiet.app.inject({ method: 'GET', url: '/api/things' });
    expect(quiet.lines).toEqual([]);
  });
});

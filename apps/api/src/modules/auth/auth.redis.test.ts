import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app';
import type { Config } from '../../config';
import { pingRedis } from '../../lib/redis';
import { memoryStorage } from '../../lib/storage';
import { createTestApp, testRateLimits, uniqueEmail, type TestContext } from '../../../test/test-app';

const REDIS_URL = 'redis://127.0.0.1:6379';
const limits = testRateLimits({
  register: { limit: 2, windowSeconds: 3600 },
  loginFailuresPerPair: { limit: 3, windowSeconds: 900 },
});

/**
 * Two instances of the app behind one load balancer: the same database, the same Redis, the same key prefix
 * (unique to this test). Whatever one counts, the other sees.
 */
async function twoInstances(config: Partial<Config>) {
  const a = await createTestApp({ config });
  const b = await buildApp({
    config: a.app.deps.config,
    db: a.database.db,
    clock: a.clock,
    logger: pino({ level: 'silent' }),
    storage: memoryStorage(),
  });
  return { a, b };
}

describe('rate limits and throttles in Redis (REDIS_URL), shared by every instance', () => {
  let a: TestContext;
  let b: App;
  beforeAll(async () => {
    ({ a, b } = await twoInstances({ redisUrl: REDIS_URL, rateLimits: limits }));
  });
  afterAll(async () => {
    const redis = a.app.deps.redis!;
    const keys = await redis.keys(`${a.app.deps.config.redisKeyPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await b.close();
    await a.close();
  });

  const via = (app: App, url: string, payload: object, remoteAddress = '10.7.0.1') =>
    app.inject({ method: 'POST', url: `/api${url}`, payload, remoteAddress });

  it('opens one Redis connection per app and puts it on deps for the health check', async () => {
    expect(a.app.deps.redis).toBeDefined();
    expect(await pingRedis(a.app.deps.redis!)).toBe(true);
  });

  it('counts route limits (@fastify/rate-limit) through both instances together', async () => {
    const body = () => ({ firstName: 'Jane', lastName: 'Doe', email: uniqueEmail('reg'), password: 'Tf-correct-horse-9' });
    expect((await via(a.app, '/users/register', body(), '10.7.1.1')).statusCode).toBe(201);
    expect((await via(b, '/users/register', body(), '10.7.1.1')).statusCode).toBe(201);
    const limited = await via(a.app, '/users/register', body(), '10.7.1.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED', retryAfter: expect.any(Number) });
    expect((await via(b, '/users/register', body(), '10.7.1.1')).statusCode).toBe(429);
    expect((await via(b, '/users/register', body(), '10.7.1.2')).statusCode).toBe(201);
  });

  it('counts failed sign-ins through both instances together', async () => {
    const email = uniqueEmail('ghost');
    const login = (app: App) => via(app, '/users/login', { email, password: 'not-the-password' }, '10.7.2.1');
    expect((await login(a.app)).statusCode).toBe(400);
    expect((await login(b)).statusCode).toBe(400);
    expect((await login(a.app)).statusCode).toBe(400);
    const limited = await login(b);
    expect(limited.statusCode).toBe(429);
    expect((await login(a.app)).statusCode).toBe(429);
    // The window is the app's clock, in Redis too.
    a.clock.advance(901_000);
    expect((await login(b)).statusCode).toBe(400);
  });

  it('keeps the resend cooldown across instances', async () => {
    const email = uniqueEmail('ghost');
    expect((await via(a.app, '/users/resend-otp', { email })).statusCode).toBe(200);
    const second = await via(b, '/users/resend-otp', { email });
    expect(second.statusCode).toBe(429);
    expect(second.json()).toMatchObject({ code: 'RATE_LIMITED', retryAfter: 60 });
  });
});

describe('without REDIS_URL', () => {
  it('counts in each process\'s memory, as a single server needs', async () => {
    const { a, b } = await twoInstances({ rateLimits: limits });
    try {
      expect(a.app.deps.redis).toBeUndefined();
      const email = uniqueEmail('ghost');
      const login = (app: App) =>
        app.inject({ method: 'POST', url: '/api/users/login', payload: { email, password: 'not-the-password' }, remoteAddress: '10.7.3.1' });
      for (let i = 0; i < 3; i += 1) expect((await login(a.app)).statusCode).toBe(400);
      expect((await login(a.app)).statusCode).toBe(429);
      expect((await login(b)).statusCode).toBe(400);
    } finally {
      await b.close();
      await a.close();
    }
  });
});

describe('with REDIS_URL set and Redis not answering', () => {
  it('answers a limited route 503 with Retry-After, not 500, and signs no one in', async () => {
    const { app, close } = await createTestApp({ config: { redisUrl: 'redis://127.0.0.1:1', rateLimits: limits } });
    try {
      const response = await app.inject({
        method: 'POST',
        url: '/api/users/login',
        payload: { email: uniqueEmail('down'), password: 'Tf-correct-horse-9' },
      });
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('5');
      expect(response.json()).toEqual({ message: 'Service unavailable', code: 'SERVICE_UNAVAILABLE', retryAfter: 5 });
    } finally {
      await close();
    }
  }, 30_000);
});

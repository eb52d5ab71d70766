import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, createTestApp, createUser, loginAs, testConfig, useTestApp, type TestContext } from '../../../test/test-app';
import { buildApp, type App } from '../../app';
import { loadConfig } from '../../config';
import { fixedClock } from '../../lib/clock';
import { memoryStorage } from '../../lib/storage';
import { checkReadiness, readyState, type StartupState } from './readiness';

describe('GET /api/health', () => {
  const ctx = useTestApp();

  it('answers ok when the database answers', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('carries the security headers with a strict CSP', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('DENY');
  });
});

describe('GET /api/health while the instance is starting', () => {
  const startup: StartupState = { ready: false, phase: 'migrating' };
  const ctx = useTestApp({ startup });

  it('answers 503 naming the database until the start is done, and every other /api route 503 too', async () => {
    const health = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(503);
    expect(health.json()).toEqual({ status: 'error', failing: ['database'], dependencies: { database: 'starting' } });
    const profile = await ctx.app.inject({ method: 'GET', url: '/api/users/profile' });
    expect(profile.statusCode).toBe(503);
    expect(profile.json()).toEqual({ message: 'Service unavailable', code: 'SERVICE_UNAVAILABLE', retryAfter: 5 });
    expect(profile.headers['retry-after']).toBe('5');

    startup.ready = true;
    startup.phase = 'ready';
    expect((await ctx.app.inject({ method: 'GET', url: '/api/health' })).json()).toEqual({ status: 'ok' });
    expect((await ctx.app.inject({ method: 'GET', url: '/api/users/profile' })).statusCode).toBe(401);
  });
});

/**
 * One instance with a database, Redis and a bucket whose calls are counted, on a clock the test moves: however
 * many requests arrive, the dependencies are asked once a second at most, and requests share the round in flight.
 */
describe('GET /api/health asks the database, Redis and the bucket at most once a second', () => {
  const clock = fixedClock('2026-03-02T09:00:00Z');
  const bucket = { calls: 0, fail: false, hold: undefined as Promise<void> | undefined };
  let base: TestContext;
  let app: App;
  let database: ReturnType<typeof vi.spyOn>;
  let redis: ReturnType<typeof vi.spyOn>;

  beforeAll(async () => {
    base = await createTestApp();
    const storage = {
      ...memoryStorage(),
      async check() {
        bucket.calls += 1;
        await bucket.hold;
        if (bucket.fail) throw new Error('connect ECONNREFUSED');
      },
    };
    app = await buildApp({
      config: testConfig({ redisUrl: 'redis://127.0.0.1:6379' }),
      db: base.database.db,
      clock,
      logger: pino({ level: 'silent' }),
      storage,
    });
    database = vi.spyOn(base.database.db, 'execute');
    redis = vi.spyOn(app.deps.redis!, 'ping');
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await app?.close();
    await base?.close();
  });

  const burst = async (count: number) => {
    const answers = await Promise.all(Array.from({ length: count }, () => app.inject({ method: 'GET', url: '/api/health' })));
    return answers.map((answer) => answer.statusCode);
  };
  const calls = () => ({ database: database.mock.calls.length, redis: redis.mock.calls.length, s3: bucket.calls });

  it('answers 50 requests at once with one call to each, and asks again only once the second has passed', async () => {
    expect(await burst(50)).toEqual(Array(50).fill(200));
    expect(calls()).toEqual({ database: 1, redis: 1, s3: 1 });

    clock.advance(999);
    expect(await burst(50)).toEqual(Array(50).fill(200));
    expect(calls()).toEqual({ database: 1, redis: 1, s3: 1 });

    clock.advance(1);
    expect(await burst(50)).toEqual(Array(50).fill(200));
    expect(calls()).toEqual({ database: 2, redis: 2, s3: 2 });
  });

  it('lets requests that arrive while a round is in flight share it, however long it takes', async () => {
    clock.advance(1000);
    let answer!: () => void;
    bucket.hold = new Promise((resolve) => (answer = resolve));
    const first = burst(20);
    await vi.waitFor(() => expect(bucket.calls).toBe(3));
    clock.advance(5000);
    const second = burst(20);
    answer();
    bucket.hold = undefined;
    expect([...(await first), ...(await second)]).toEqual(Array(40).fill(200));
    expect(calls()).toEqual({ database: 3, redis: 3, s3: 3 });
  });

  it('turns 503 within a second of a dependency failing, and 200 within a second of its return', async () => {
    bucket.fail = true;
    clock.advance(1000);
    const down = await app.inject({ method: 'GET', url: '/api/health' });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ status: 'error', failing: ['s3'], dependencies: { database: 'ok', redis: 'ok', s3: 'error' } });

    bucket.fail = false;
    // The last answer still stands for the rest of its second...
    clock.advance(500);
    expect(await burst(10)).toEqual(Array(10).fill(503));
    // ...and the next request after it asks again.
    clock.advance(500);
    expect(await burst(10)).toEqual(Array(10).fill(200));
    expect(calls()).toEqual({ database: 5, redis: 5, s3: 5 });
  });
});

describe('checkReadiness', () => {
  const ready = readyState();
  const ok = { name: 'database', check: async () => 'pong' };

  it('is ok when every dependency answers', async () => {
    expect(await checkReadiness([ok, { name: 's3', check: async () => undefined }], ready, () => {})).toEqual({
      ok: true,
      failing: [],
      dependencies: { database: 'ok', s3: 'ok' },
    });
  });

  it('names each failing dependency, with why, and reports each failure to the log', async () => {
    const failures: string[] = [];
    const result = await checkReadiness(
      [
        ok,
        { name: 's3', check: async () => Promise.reject(new Error('connect ECONNREFUSED')) },
        { name: 'redis', check: () => new Promise(() => {}) },
      ],
      ready,
      (name) => failures.push(name),
      50,
    );
    expect(result).toEqual({ ok: false, failing: ['s3', 'redis'], dependencies: { database: 'ok', s3: 'error', redis: 'timeout' } });
    expect(failures.sort()).toEqual(['redis', 's3']);
  });

  it('counts a check that throws synchronously as failing, not as a crash', async () => {
    const result = await checkReadiness(
      [
        {
          name: 'database',
          check: () => {
            throw new Error('pool is closed');
          },
        },
      ],
      ready,
      () => {},
    );
    expect(result.failing).toEqual(['database']);
  });
});

describe('DEPOSIT_ADDRESS is not a setting', () => {
  const ADDRESS = 'bc1qdepositaddressthatmustnotshow0000000000';
  let ctx: TestContext;
  beforeAll(async () => {
    // Exactly what the server reads at start, with the retired variable set.
    const config = loadConfig({ APP_SECRET: 'a-test-secret-that-is-long-enough-0123456789', LOG_LEVEL: 'silent', DEPOSIT_ADDRESS: ADDRESS });
    expect(JSON.stringify(config)).not.toContain(ADDRESS);
    ctx = await createTestApp({ config });
  });
  afterAll(() => ctx.close());

  it('shows the address nowhere: /api/config, the OpenAPI document, a member’s profile and dashboard', async () => {
    const config = await ctx.app.inject({ method: 'GET', url: '/api/config' });
    expect(config.statusCode).toBe(200);
    expect(Object.keys(config.json()).sort()).toEqual([
      'contactEmail',
      'contactPhone',
      'minWithdrawalUsd',
      'payoutProvider',
      'withdrawalAssets',
      'withdrawalDailyLimitUsd',
      'withdrawalFeeUsd',
    ]);
    expect(config.body).not.toContain(ADDRESS);

    const docs = await ctx.app.inject({ method: 'GET', url: '/api/docs' });
    expect(docs.body).not.toContain(ADDRESS);
    expect(docs.body).not.toContain('depositAddress');

    const member = await createUser(ctx);
    const token = await loginAs(ctx, member.email);
    for (const url of ['/api/users/profile', '/api/users/dashboard', '/api/transactions', '/api/plans']) {
      const response = await ctx.app.inject({ method: 'GET', url, headers: bearer(token) });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).not.toContain(ADDRESS);
    }
  });
});

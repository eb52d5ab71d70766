import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createUser, loginAs, useTestApp, type TestContext } from '../../../test/test-app';
import { loadConfig } from '../../config';
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
    expect(Object.keys(config.json()).sort()).toEqual(['contactEmail', 'contactPhone']);
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

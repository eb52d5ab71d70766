import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { bearer, createUser, loginAs, useTestApp, type TestContext } from '../../test/test-app';
import { routePattern } from './metrics';

const scrape = async (ctx: TestContext, headers: Record<string, string> = {}) => ctx.app.inject({ method: 'GET', url: '/metrics', headers });

describe('GET /metrics', () => {
  describe('without METRICS_TOKEN', () => {
    const ctx = useTestApp();

    it('answers Prometheus text with a duration histogram labelled by route pattern, process and domain metrics', async () => {
      const member = await createUser(ctx);
      const token = await loginAs(ctx, member.email);
      await ctx.app.inject({ method: 'GET', url: '/api/users/profile', headers: bearer(token) });
      await ctx.app.inject({ method: 'GET', url: '/api/projects/assets/6b0a8a9c-2f0e-4c55-9d11-0b7f7e4a5a11' });
      await ctx.app.inject({ method: 'GET', url: '/api/no/such/route?x=1' });

      const response = await scrape(ctx);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = response.body;
      expect(text).toContain('# TYPE http_request_duration_seconds histogram');
      expect(text).toMatch(/^http_request_duration_seconds_count\{method="GET",route="\/api\/users\/profile",status="200"\} 1$/m);
      expect(text).toMatch(/^http_request_duration_seconds_count\{method="GET",route="\/api\/projects\/assets\/:id",status="404"\} 1$/m);
      expect(text).toMatch(/^http_request_duration_seconds_count\{method="GET",route="unmatched",status="404"\} 1$/m);
      expect(text).not.toContain('6b0a8a9c');
      expect(text).not.toContain('no/such');
      expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
      expect(text).toContain('# TYPE terrafund_payments_settled_total counter');
      expect(text).toMatch(/^terrafund_payouts_paid_cents_total 0$/m);
      expect(text).toMatch(/^terrafund_withdrawals_pending 0$/m);
      expect(text).toMatch(/^terrafund_withdrawals_pending_cents 0$/m);
      expect(text).toContain('# TYPE terrafund_webhook_failures_total counter');
    });

    it('counts a notification answered with an error as a webhook failure, by provider and status', async () => {
      const bad = await ctx.app.inject({
        method: 'POST',
        url: '/api/payments/webhooks/sandbox',
        headers: { 'content-type': 'application/json', 'x-sandbox-signature': 'nope' },
        payload: '{"invoiceId":"x"}',
      });
      expect(bad.statusCode).toBeGreaterThanOrEqual(400);
      expect((await scrape(ctx)).body).toMatch(new RegExp(`^terrafund_webhook_failures_total\\{provider="sandbox",status="${bad.statusCode}"\\} 1$`, 'm'));
    });
  });

  describe('with METRICS_TOKEN', () => {
    const metricsToken = 'metrics-token-for-tests-0123456789';
    const ctx = useTestApp({ config: { metricsToken } });

    it('needs Authorization: Bearer <token>, and 401 otherwise', async () => {
      const member = await createUser(ctx, { role: 'admin' });
      const session = await loginAs(ctx, member.email);
      for (const headers of [{}, bearer('wrong'), bearer(session), { authorization: metricsToken }, bearer(`${metricsToken}x`)]) {
        const response = await scrape(ctx, headers);
        expect(response.statusCode, JSON.stringify(headers)).toBe(401);
        expect(response.json()).toEqual({ message: 'A valid metrics token is required', code: 'UNAUTHENTICATED' });
        expect(response.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      }
      const ok = await scrape(ctx, bearer(metricsToken));
      expect(ok.statusCode).toBe(200);
      expect(ok.body).toContain('http_request_duration_seconds');
    });
  });
});

describe('the route pattern a request is counted under', () => {
  it('is request.routeOptions.url, for routes with and without parameters, HEAD, and unmatched requests', async () => {
    const app = Fastify({ logger: false });
    const seen: [string | undefined, string | undefined][] = [];
    app.addHook('onResponse', (request, _reply, done) => {
      seen.push([routePattern(request), request.routeOptions.url]);
      done();
    });
    app.get('/api/things/:id', async () => ({ ok: true }));
    app.post('/api/things', async () => ({ ok: true }));
    await app.ready();
    for (const [method, url] of [['GET', '/api/things/7'], ['HEAD', '/api/things/8'], ['POST', '/api/things'], ['GET', '/nowhere'], ['DELETE', '/api/things']] as const) {
      await app.inject({ method, url });
    }
    expect(seen.map(([pattern]) => pattern)).toEqual(['/api/things/:id', '/api/things/:id', '/api/things', undefined, undefined]);
    for (const [pattern, expected] of seen) expect(pattern).toBe(expected);
    await app.close();
  });
});

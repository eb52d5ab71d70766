import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createUser, loginAs, useTestApp, type TestContext } from '../../test/test-app';
import { requestDurationHistogram, startMetricsListener } from './metrics';

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

describe('the request histogram', () => {
  it('prints what it printed before it was prom-client’s own Histogram: name, help, labels, buckets, order', async () => {
    const registry = new Registry();
    const duration = requestDurationHistogram(registry);
    duration.observe({ method: 'GET', route: '/api/config', status: '200' }, 0.004);
    duration.observe({ method: 'GET', route: '/api/config', status: '200' }, 0.3);
    duration.observe({ method: 'POST', route: '/api/users/:id', status: '404' }, 12);
    // The text the hand-written histogram this replaced printed for the same observations.
    expect((await registry.metrics()).split('\n')).toEqual([
      '# HELP http_request_duration_seconds Time to answer an HTTP request, by method, route pattern and status.',
      '# TYPE http_request_duration_seconds histogram',
      'http_request_duration_seconds_bucket{le="0.005",method="GET",route="/api/config",status="200"} 1',
      'http_request_duration_seconds_bucket{le="0.01",method="GET",route="/api/config",status="200"} 1',
      'http_request_duration_seconds_bucket{le="0.025",method="GET",route="/api/config",status="200"} 1',
      'http_request_duration_seconds_bucket{le="0.05",method="GET",route="/api/config",status="200"} 1',
      'http_request_duration_seconds_bucket{le="0.1",method="GET",route="/api/config",status="200"} 1',
      'http_request_duration_seconds_bucket{le="0.25",method="GET",route="/api/config",status="200"} 1',
      'http_request_duration_seconds_bucket{le="0.5",method="GET",route="/api/config",status="200"} 2',
      'http_request_duration_seconds_bucket{le="1",method="GET",route="/api/config",status="200"} 2',
      'http_request_duration_seconds_bucket{le="2.5",method="GET",route="/api/config",status="200"} 2',
      'http_request_duration_seconds_bucket{le="5",method="GET",route="/api/config",status="200"} 2',
      'http_request_duration_seconds_bucket{le="10",method="GET",route="/api/config",status="200"} 2',
      'http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/api/config",status="200"} 2',
      'http_request_duration_seconds_sum{method="GET",route="/api/config",status="200"} 0.304',
      'http_request_duration_seconds_count{method="GET",route="/api/config",status="200"} 2',
      'http_request_duration_seconds_bucket{le="0.005",method="POST",route="/api/users/:id",status="404"} 0',
      'http_request_duration_seconds_bucket{le="0.01",method="POST",route="/api/users/:id",status="404"} 0',
      'http_request_duration_seconds_bucket{le="0.025",method="POST",route="/api/users/:id",status="404"} 0',
      'http_request_duration_seconds_bucket{le="0.05",method="POST",route="/api/users/:id",status="404"} 0',
      'http_request_duration_seconds_bucket{le="0.1",method="POST",route="/api/users/:id",status="404"} 0',
      'http_request_duration_seconds_bucket{le="0.25",method="POST",route="/api/users/:id",status="404"} 0',
      'http_request_duration_seconds_bucket{le="0.5",method="POST",route="/api/users/:id",status="404"} 0',
      'http_request_duration_seconds_bucket{le="1",method="POST",route="/api/users/:id",status="404"} 0',
      'http_request_duration_seconds_bucket{le="2.5",method="POST",route="/api/users/:id",status="404"} 0',
      'http_request_duration_seconds_bucket{le="5",method="POST",route="/api/users/:id",status="404"} 0',
      'http_request_duration_seconds_bucket{le="10",method="POST",route="/api/users/:id",status="404"} 0',
      'http_request_duration_seconds_bucket{le="+Inf",method="POST",route="/api/users/:id",status="404"} 1',
      'http_request_duration_seconds_sum{method="POST",route="/api/users/:id",status="404"} 12',
      'http_request_duration_seconds_count{method="POST",route="/api/users/:id",status="404"} 1',
      '',
    ]);
  });
});

describe('GET /metrics on a listener of its own (METRICS_PORT)', () => {
  const metricsToken = 'metrics-token-for-tests-0123456789';
  const ctx = useTestApp({ config: { metricsListener: { host: '127.0.0.1', port: 0 } } });
  const guarded = useTestApp({ config: { metricsListener: { host: '127.0.0.1', port: 0 }, metricsToken } });
  const listeners: { url: string; close(): Promise<void> }[] = [];
  beforeAll(async () => {
    for (const app of [ctx.app, guarded.app]) {
      const server = await startMetricsListener(app.metrics, { host: '127.0.0.1', port: 0 });
      listeners.push({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => new Promise((resolve) => server.close(() => resolve())),
      });
    }
  });
  afterAll(async () => {
    await Promise.all(listeners.map((listener) => listener.close()));
  });

  it('is not served on the app’s own port', async () => {
    for (const app of [ctx.app, guarded.app]) {
      const response = await app.inject({ method: 'GET', url: '/metrics' });
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain('http_request_duration_seconds');
    }
  });

  it('serves the app’s metrics there, and nothing else', async () => {
    await ctx.app.inject({ method: 'GET', url: '/api/health' });
    const response = await fetch(`${listeners[0]!.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const text = await response.text();
    expect(text).toMatch(/^http_request_duration_seconds_count\{method="GET",route="\/api\/health",status="200"\} 1$/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    expect(text).toMatch(/^terrafund_withdrawals_pending 0$/m);
    for (const path of ['/', '/api/health', '/metrics/x', '/metricsx']) expect((await fetch(`${listeners[0]!.url}${path}`)).status, path).toBe(404);
    expect((await fetch(`${listeners[0]!.url}/metrics`, { method: 'POST' })).status).toBe(404);
  });

  it('needs the token there too when METRICS_TOKEN is set', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: metricsToken }] as Record<string, string>[]) {
      const response = await fetch(`${listeners[1]!.url}/metrics`, { headers });
      expect(response.status, JSON.stringify(headers)).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      expect(await response.text()).not.toContain('http_request_duration_seconds');
    }
    const ok = await fetch(`${listeners[1]!.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('http_request_duration_seconds');
  });
});

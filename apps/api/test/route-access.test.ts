import Fastify, { type FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../src/deps';
import { registerAccessControl, type RegisteredRoute } from '../src/plugins/access';
import { bearer, createUser, loginAs, randomId, useTestApp } from './test-app';

const sessionExpired = { message: 'Session expired. Please login again.', code: 'UNAUTHENTICATED' };

/** Routes that must exist, with who may call them (docs/product.md §9.3 Routes, docs/product.md §9.3 Routes). */
const knownRoutes: RegisteredRoute[] = [
  { method: 'GET', url: '/api/health', access: 'public' },
  { method: 'GET', url: '/api/docs', access: 'public' },
  { method: 'POST', url: '/api/users/register', access: 'public' },
  { method: 'POST', url: '/api/users/login', access: 'public' },
  { method: 'POST', url: '/api/users/verify-otp', access: 'public' },
  { method: 'POST', url: '/api/users/resend-otp', access: 'public' },
  { method: 'POST', url: '/api/users/forgot-password', access: 'public' },
  { method: 'POST', url: '/api/users/reset-password', access: 'public' },
  { method: 'POST', url: '/api/users/logout', access: 'user' },
  { method: 'POST', url: '/api/users/change-password', access: 'user' },
  { method: 'GET', url: '/api/users/profile', access: 'user' },
  { method: 'PATCH', url: '/api/users/profile', access: 'user' },
  { method: 'POST', url: '/api/users/2fa/setup', access: 'user' },
  { method: 'POST', url: '/api/users/2fa/enable', access: 'user' },
  { method: 'POST', url: '/api/users/2fa/disable', access: 'user' },
  { method: 'POST', url: '/api/users/login/2fa', access: 'public' },
  { method: 'GET', url: '/api/users/sessions', access: 'user' },
  { method: 'DELETE', url: '/api/users/sessions', access: 'user' },
  { method: 'DELETE', url: '/api/users/sessions/:id', access: 'user' },
  { method: 'GET', url: '/api/admin/audit', access: 'admin' },
  { method: 'GET', url: '/api/users', access: 'admin' },
  { method: 'GET', url: '/api/admin/users', access: 'admin' },
  { method: 'GET', url: '/api/users/:id', access: 'admin' },
  { method: 'GET', url: '/api/admin/users/:id', access: 'admin' },
  { method: 'PATCH', url: '/api/users/:id', access: 'admin' },
  { method: 'DELETE', url: '/api/users/:id', access: 'admin' },
  { method: 'GET', url: '/api/plans', access: 'public' },
  { method: 'POST', url: '/api/transactions', access: 'user' },
  { method: 'GET', url: '/api/transactions', access: 'user' },
  { method: 'GET', url: '/api/transactions/:id', access: 'user' },
  { method: 'GET', url: '/api/transactions/export', access: 'user' },
  { method: 'GET', url: '/api/notifications', access: 'user' },
  { method: 'POST', url: '/api/notifications/read', access: 'user' },
  { method: 'GET', url: '/api/payments', access: 'user' },
  { method: 'PATCH', url: '/api/transactions/:id/status', access: 'admin' },
  { method: 'POST', url: '/api/admin/transactions/withdrawal/:id', access: 'admin' },
  // Money out (issue 32).
  { method: 'GET', url: '/api/admin/transactions/:id', access: 'admin' },
  { method: 'POST', url: '/api/withdrawals/confirm', access: 'public' },
  { method: 'POST', url: '/api/transactions/:id/cancel', access: 'user' },
  { method: 'GET', url: '/api/users/withdrawal-addresses', access: 'user' },
  { method: 'DELETE', url: '/api/users/withdrawal-addresses/:id', access: 'user' },
  { method: 'GET', url: '/api/users/dashboard', access: 'user' },
  { method: 'GET', url: '/api/users/investment-performance', access: 'user' },
  { method: 'GET', url: '/api/admin/dashboard/stats', access: 'admin' },
  { method: 'GET', url: '/api/admin/dashboard/transactions', access: 'admin' },
  { method: 'GET', url: '/api/admin/transactions', access: 'admin' },
  { method: 'POST', url: '/api/admin/payouts/run', access: 'admin' },
  { method: 'POST', url: '/api/payments/webhooks/btcpay', access: 'provider' },
  { method: 'POST', url: '/api/payments/webhooks/nowpayments', access: 'provider' },
  { method: 'GET', url: '/api/projects', access: 'user' },
  { method: 'GET', url: '/api/projects/:id', access: 'user' },
  { method: 'POST', url: '/api/projects', access: 'admin' },
  { method: 'PATCH', url: '/api/projects/:id', access: 'admin' },
  { method: 'DELETE', url: '/api/projects/:id', access: 'admin' },
  { method: 'POST', url: '/api/projects/:id/invest', access: 'user' },
  { method: 'POST', url: '/api/projects/assets', access: 'admin' },
  { method: 'GET', url: '/api/admin/payments/review', access: 'admin' },
  { method: 'POST', url: '/api/admin/payments/:id/review', access: 'admin' },
  { method: 'GET', url: '/api/admin/mail/undeliverable', access: 'admin' },
  { method: 'POST', url: '/api/admin/mail/:id/resend', access: 'admin' },
  // The privacy rights (issue 34, modules/privacy); the RFC 8058 one-click POST /unsubscribe is outside /api.
  { method: 'POST', url: '/api/users/data-export', access: 'user' },
  { method: 'GET', url: '/api/users/data-export', access: 'user' },
  { method: 'GET', url: '/api/users/data-export/:id/download', access: 'user' },
  { method: 'POST', url: '/api/users/close', access: 'user' },
  { method: 'GET', url: '/api/users/notification-preferences', access: 'user' },
  { method: 'PATCH', url: '/api/users/notification-preferences', access: 'user' },
  { method: 'POST', url: '/api/unsubscribe', access: 'public' },
];

describe('route access', () => {
  const ctx = useTestApp();
  let member: Awaited<ReturnType<typeof createUser>>;
  let admin: Awaited<ReturnType<typeof createUser>>;
  beforeAll(async () => {
    member = await createUser(ctx);
    admin = await createUser(ctx, { role: 'admin' });
  });

  it('registers every known route with its access', () => {
    expect(ctx.app.routesRegistry.length).toBeGreaterThanOrEqual(knownRoutes.length);
    expect(ctx.app.routesRegistry).toEqual(expect.arrayContaining(knownRoutes));
    for (const route of ctx.app.routesRegistry) {
      expect(route.url.startsWith('/api')).toBe(true);
      expect(['public', 'user', 'admin', 'provider']).toContain(route.access);
    }
  });

  it('lets every route be called only by the callers its access allows', async () => {
    const failures: string[] = [];
    for (const route of ctx.app.routesRegistry) {
      const url = route.url.replace(/:[A-Za-z_]+/g, () => randomId());
      const hasBody = route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH';
      // Fresh sessions for every route, since some routes (logout) end the one they are called with.
      const callers: [name: 'anonymous' | 'member' | 'admin' | 'forged', headers: Record<string, string>][] = [
        ['anonymous', {}],
        ['forged', bearer(`${randomId()}.${'A'.repeat(43)}`)],
        ['member', bearer(await loginAs(ctx, member.email))],
        ['admin', bearer(await loginAs(ctx, admin.email))],
      ];
      for (const [caller, headers] of callers) {
        const response = await ctx.app.inject({
          method: route.method as 'GET',
          url,
          headers,
          ...(hasBody ? { payload: {} } : {}),
        });
        const label = `${route.method} ${route.url} as ${caller} (${route.access}) → ${response.statusCode}`;
        const status = response.statusCode;
        if (status >= 500) failures.push(`${label}: server error ${response.body}`);

        const mayCall =
          route.access === 'public' ||
          route.access === 'provider' ||
          (route.access === 'user' && (caller === 'member' || caller === 'admin')) ||
          (route.access === 'admin' && caller === 'admin');
        if (!mayCall && status >= 200 && status < 300) failures.push(`${label}: unexpected success`);

        if (route.access === 'user' || route.access === 'admin') {
          if (caller === 'anonymous' || caller === 'forged') {
            if (status !== 401) failures.push(`${label}: expected 401`);
            else if (JSON.stringify(response.json()) !== JSON.stringify(sessionExpired)) failures.push(`${label}: ${response.body}`);
          }
        }
        if (route.access === 'admin' && caller === 'member') {
          if (status !== 403) failures.push(`${label}: expected 403`);
          else if (response.json().code !== 'FORBIDDEN') failures.push(`${label}: ${response.body}`);
        }
        // 401 means "your session is gone" to the client, so no route may answer it to a caller its access admits.
        // A session-gated route must not refuse its callers either; a public route may still answer 403 on its
        // own terms (a signed link with a bad signature).
        if (mayCall && status === 401) failures.push(`${label}: answered 401 to an allowed caller`);
        if (mayCall && status === 403 && (route.access === 'user' || route.access === 'admin')) {
          failures.push(`${label}: refused an allowed caller`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('serves GET /metrics outside /api: for the scraper, guarded by METRICS_TOKEN when set (plugins/metrics.test.ts)', async () => {
    expect(ctx.app.hasRoute({ method: 'GET', url: '/metrics' })).toBe(true);
    expect(ctx.app.routesRegistry.some((route) => route.url.includes('metrics'))).toBe(false);
    // No METRICS_TOKEN in the test configuration: open, and a session token changes nothing.
    for (const headers of [{}, bearer(await loginAs(ctx, member.email))]) {
      expect((await ctx.app.inject({ method: 'GET', url: '/metrics', headers })).statusCode).toBe(200);
    }
  });

  it('refuses to build an app with an /api route that does not declare its access', async () => {
    const build = async (register: (app: FastifyInstance) => void) => {
      const app = Fastify({ logger: false });
      const registry: RegisteredRoute[] = [];
      registerAccessControl(app, {} as Deps, registry);
      register(app);
      try {
        await app.ready();
        return registry;
      } finally {
        await app.close().catch(() => {});
      }
    };

    await expect(build((app) => app.get('/api/undeclared', async () => ({ ok: true })))).rejects.toThrow(
      'Route GET /api/undeclared does not declare who may call it',
    );
    await expect(
      build((app) =>
        app.register(async (api: FastifyInstance) => {
          api.post('/things/:id', async () => ({ ok: true }));
        }, { prefix: '/api' }),
      ),
    ).rejects.toThrow('Route POST /api/things/:id does not declare who may call it');

    // Declared routes are registered; routes outside /api (the web app's files) need no declaration.
    const registry = await build((app) => {
      app.get('/api/declared', { config: { access: 'admin' } }, async () => ({ ok: true }));
      app.get('/index.html', async () => 'ok');
    });
    expect(registry).toEqual([{ method: 'GET', url: '/api/declared', access: 'admin' }]);
  });
});

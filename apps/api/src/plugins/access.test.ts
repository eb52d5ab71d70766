import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../deps';
import { registerAccessControl, type RegisteredRoute } from './access';
import { registerErrorHandling } from './errors';

/**
 * The session check is an onRequest hook of each 'user' and 'admin' route (test/route-access.test.ts checks every
 * route and caller): it also guards the HEAD route Fastify adds for a GET, and runs before the route's own hooks.
 */
describe('the access check on a route', () => {
  const app = Fastify({ logger: false });
  const ownHookRan: string[] = [];
  beforeAll(async () => {
    registerErrorHandling(app, { dependencyDown: () => false });
    registerAccessControl(app, { config: { requireAdmin2fa: false } } as Deps, [] as RegisteredRoute[]);
    const own = async (request: { url: string }) => {
      ownHookRan.push(request.url);
    };
    app.get('/api/mine', { config: { access: 'user' }, onRequest: own }, async () => ({ ok: true }));
    app.get('/api/admin-only', { config: { access: 'admin' }, onRequest: [own] }, async () => ({ ok: true }));
    app.get('/api/open', { config: { access: 'public' }, onRequest: own }, async (request) => ({ auth: request.auth }));
    await app.ready();
  });
  afterAll(() => app.close());

  it('refuses a caller without a session on GET and HEAD, before the route’s own hooks run', async () => {
    for (const url of ['/api/mine', '/api/admin-only']) {
      for (const method of ['GET', 'HEAD'] as const) {
        const response = await app.inject({ method, url, headers: { authorization: 'Basic abc' } });
        expect(response.statusCode, `${method} ${url}`).toBe(401);
      }
    }
    expect(ownHookRan).toEqual([]);
  });

  it('leaves public routes to their own hooks, without a session', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/open' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ auth: null });
    expect(ownHookRan).toEqual(['/api/open']);
  });
});

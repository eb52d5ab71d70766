import type { FastifyInstance, FastifyRequest } from 'fastify';
import { messages } from '@terrafund/contracts';
import type { Deps } from '../deps';
import { AppError } from '../lib/app-error';
import { assertAdminTwoFactor, resolveSession } from '../modules/sessions';

/** Who may call a route. Every /api route declares one; registering a route without it fails at boot. */
type Access = 'public' | 'user' | 'admin' | 'provider';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
}

export type RegisteredRoute = { method: string; url: string; access: Access };

export function registerAccessControl(app: FastifyInstance, deps: Deps, registry: RegisteredRoute[]) {
  app.decorateRequest('auth', null);

  /** The caller's session for a 'user' or 'admin' route, or the refusal. */
  const authenticate = async (request: FastifyRequest, access: 'user' | 'admin') => {
    const header = request.headers.authorization;
    const token = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
    const session = token ? await resolveSession(deps, token) : null;
    if (!session) throw new AppError('UNAUTHENTICATED', messages.auth.sessionExpired);
    if (access === 'admin' && session.user.role !== 'admin') throw new AppError('FORBIDDEN', messages.auth.forbidden);
    // The setup routes and the profile are 'user' routes, so an admin without 2FA can still turn it on; what
    // a 'user' route opens to admins only checks the same rule itself (opensAsAdmin).
    if (access === 'admin') assertAdminTwoFactor(deps, session.user);
    request.auth = session;
  };
  const asUser = (request: FastifyRequest) => authenticate(request, 'user');
  const asAdmin = (request: FastifyRequest) => authenticate(request, 'admin');

  app.addHook('onRoute', (route) => {
    const access = route.config?.access;
    if (route.url.startsWith('/api')) {
      if (!access) throw new Error(`Route ${String(route.method)} ${route.url} does not declare who may call it`);
      for (const method of [route.method].flat()) {
        if (method !== 'HEAD') registry.push({ method, url: route.url, access });
      }
    }
    // The check is an onRequest hook of the routes that need one, first of the route's own hooks: the caller is
    // known (or refused) before the body is even parsed, and before the route's size and rate limits. Public
    // and provider routes have none, rather than a global hook that returns at once (a promise per request).
    if (access === 'user' || access === 'admin') {
      route.onRequest = [access === 'admin' ? asAdmin : asUser, ...[route.onRequest ?? []].flat()];
    }
  });
}

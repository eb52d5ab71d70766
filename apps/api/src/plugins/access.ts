import type { FastifyInstance, FastifyRequest } from 'fastify';
import { messages } from '@terrafund/contracts';
import type { Deps } from '../deps';
import { AppError } from '../lib/app-error';
import { resolveSession, type ResolvedSession } from '../modules/auth/session.service';

/** Who may call a route. Every /api route declares one; registering a route without it fails at boot. */
type Access = 'public' | 'user' | 'admin' | 'provider';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    auth: ResolvedSession | null;
  }
}

export type RegisteredRoute = { method: string; url: string; access: Access };

/** The authenticated caller, for handlers of 'user' and 'admin' routes. */
export function requireAuth(request: FastifyRequest): ResolvedSession {
  if (!request.auth) throw new AppError('UNAUTHENTICATED', messages.auth.sessionExpired);
  return request.auth;
}

export function registerAccessControl(app: FastifyInstance, deps: Deps, registry: RegisteredRoute[]) {
  app.decorateRequest('auth', null);

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api')) return;
    const access = route.config?.access;
    if (!access) throw new Error(`Route ${String(route.method)} ${route.url} does not declare who may call it`);
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') registry.push({ method, url: route.url, access });
    }
  });

  // onRequest: the caller is known (or refused) before the body is even parsed.
  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config?.access;
    if (!access || access === 'public' || access === 'provider') return;
    const header = request.headers.authorization;
    const token = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
    const session = token ? await resolveSession(deps, token) : null;
    if (!session) throw new AppError('UNAUTHENTICATED', messages.auth.sessionExpired);
    if (access === 'admin' && session.user.role !== 'admin') throw new AppError('FORBIDDEN', messages.auth.forbidden);
    // The setup routes and the profile are 'user' routes, so an admin without 2FA can still turn it on.
    if (access === 'admin' && deps.config.requireAdmin2fa && session.user.twoFactorEnabledAt === null) {
      throw new AppError('TWO_FACTOR_REQUIRED', messages.twoFactor.required);
    }
    request.auth = session;
  });
}

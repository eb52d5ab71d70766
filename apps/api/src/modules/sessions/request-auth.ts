import type { FastifyRequest } from 'fastify';
import { messages } from '@terrafund/contracts';
import { AppError } from '../../lib/app-error';
import type { ResolvedSession } from './session.service';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's session on a 'user' or 'admin' route (set by plugins/access.ts before the handler runs). */
    auth: ResolvedSession | null;
  }
}

/** The authenticated caller, for handlers of 'user' and 'admin' routes. */
export function requireAuth(request: FastifyRequest): ResolvedSession {
  if (!request.auth) throw new AppError('UNAUTHENTICATED', messages.auth.sessionExpired);
  return request.auth;
}

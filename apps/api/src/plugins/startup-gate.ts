import type { FastifyInstance } from 'fastify';
import { messages } from '@terrafund/contracts';
import { AppError } from '../lib/app-error';
import type { StartupState } from '../modules/health';

/**
 * While the instance is still starting (its database unreachable, or migrating), every /api route but the health
 * check answers 503 at once instead of failing deep inside a query; the web app's files are still served.
 * While it stops, each answer closes its connection. Both hooks are synchronous, in callback style: an async
 * hook costs every request a promise and a turn of the microtask queue (docs/performance.md).
 */
export function registerStartupGate(app: FastifyInstance, startup: StartupState) {
  app.addHook('onRequest', (request, _reply, done) => {
    if (startup.ready || request.routeOptions.url === '/api/health' || !request.url.startsWith('/api')) return done();
    done(new AppError('SERVICE_UNAVAILABLE', messages.common.serviceUnavailable, { retryAfter: 5 }));
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (startup.stopping) reply.header('connection', 'close');
    done(null, payload);
  });
}

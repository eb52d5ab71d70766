import type { FastifyInstance } from 'fastify';

/**
 * One access-log line per request, written when the response has gone: method, URL, status and time taken,
 * with the request id. Replaces Fastify's own pair of lines ("incoming request" and "request completed",
 * `disableRequestLogging` in app.ts): on a small answer, writing two JSON lines cost more than the request
 * itself (docs/performance.md, "GET /api/config against a bare server").
 */
export function registerAccessLog(app: FastifyInstance) {
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    done();
  });
}

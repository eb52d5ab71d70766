import type { FastifyInstance } from 'fastify';

/**
 * One access-log line per request, written when the response has gone: method, URL, status and time taken,
 * with the request id. Replaces Fastify's own pair of lines ("incoming request" and "request completed",
 * `disableRequestLogging` in app.ts): on a small answer, writing two JSON lines cost more than the request
 * itself (docs/performance.md, "GET /api/config against a bare server").
 *
 * The line holds nothing secret by construction (the request serializer keeps method, path, host and address, and
 * drops the query string; no headers, no body), so it is written by a child logger without the redaction every
 * other line goes through (lib/logger.ts): matching its paths cost about 75 µs a line, a quarter of the request.
 */
export function registerAccessLog(app: FastifyInstance) {
  const accessLog = app.log.child({}, { redact: [] });
  app.addHook('onResponse', (request, reply, done) => {
    accessLog.info({ reqId: request.id, req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    done();
  });
}

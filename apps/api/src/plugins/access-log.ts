import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { requestSerializer } from '../lib/logger';

/** Something done with each request once its answer has gone (the request histogram, plugins/metrics.ts). */
export type ResponseObserver = (request: FastifyRequest, reply: FastifyReply) => void;

/**
 * One access-log line per request, written when the response has gone: the request id, the request (method, path
 * without its query string, host, address and port), the status and the time taken in milliseconds, to the
 * microsecond. Replaces Fastify's own pair of lines ("incoming request" and "request completed",
 * `disableRequestLogging` in app.ts): on a small answer, writing two JSON lines cost more than the request itself
 * (docs/performance.md, "GET /api/config").
 *
 * Written by a child of the app's logger, one for the app, with the request id among the line's fields: a child per
 * request is what the lazy request logger avoids (lib/logger.ts). The line holds nothing secret by construction (no
 * headers, no body, no query string), so the child has no redaction of its own: matching the other lines' paths
 * would cost every request for nothing.
 *
 * The same hook runs the `observers`: one hook for all that follows an answer, as each hook Fastify runs costs every
 * request its turn through the hook runner (docs/performance.md).
 */
export function registerAccessLog(app: FastifyInstance, observers: ResponseObserver[] = []) {
  const accessLog = (app.log as Logger).child(
    {},
    {
      redact: [],
      serializers: { req: requestSerializer, res: (reply: FastifyReply) => ({ statusCode: reply.statusCode }) },
    },
  );
  app.addHook('onResponse', (request, reply, done) => {
    accessLog.info(
      { reqId: request.id, req: request, res: reply, responseTime: Math.round(reply.elapsedTime * 1000) / 1000 },
      'request completed',
    );
    for (const observe of observers) observe(request, reply);
    done();
  });
}

import type { FastifyInstance, preValidationHookHandler } from 'fastify';
import { messages } from '@terrafund/contracts';
import { AppError } from '../lib/app-error';

const MAX_DEPTH = 32;

/** Arrays and plain objects (the query parser's objects inherit from a null-prototype object); not buffers or streams. */
const isPlainContainer = (value: object) => {
  if (Array.isArray(value)) return true;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null || Object.getPrototypeOf(proto) === null;
};

/** The path of the first string (or key) holding U+0000 in a parsed body or query, if any. */
function findNul(value: unknown, path: string, depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH || !isPlainContainer(value)) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const itemPath = path ? `${path}.${key}` : key;
    if (key.includes('\u0000')) return path || '_';
    const found = findNul(item, itemPath, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Methods whose requests carry no body a route reads. */
const BODILESS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * PostgreSQL text cannot hold U+0000, so a string carrying one would fail in the database as a 500. It is bad
 * input: refused, before the route's own validation runs, on every route that reads input (a body, or a query
 * string its schema declares: a route reads no query it has no schema for). A route that reads neither, such as
 * `GET /api/config`, runs no check at all: every hook Fastify runs costs each request its turn through the hook
 * runner (with the histogram's hook, about 4% of a small answer's requests per second; docs/performance.md).
 * Synchronous, in callback style: an async hook costs every request a promise and a turn of the microtask queue.
 */
export function registerInputGuards(app: FastifyInstance) {
  const refuseNul: preValidationHookHandler = (request, _reply, done) => {
    const field = findNul(request.body, '') ?? findNul(request.query, '');
    if (field === undefined) return done();
    done(
      new AppError('VALIDATION_ERROR', messages.validation.invalidInput, {
        fields: { [field || '_']: messages.validation.invalidInput },
      }),
    );
  };
  app.addHook('onRoute', (route) => {
    const takesBody = [route.method].flat().some((method) => !BODILESS.has(method));
    if (takesBody || route.schema?.body || route.schema?.querystring) {
      route.preValidation = [refuseNul, ...[route.preValidation ?? []].flat()];
    }
  });
}

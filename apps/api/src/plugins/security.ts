import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_HEADERS, pageHeaders } from '../lib/security-headers';

/**
 * Security headers on every response, by what the response is.
 * - **A page or the web app's files** get helmet's whole set for our CSP (with the pages' inline scripts by hash)
 *   and a Permissions-Policy.
 * - **A JSON answer** (`/api`) gets the headers that mean something for it: the CSP above, CORP, Referrer-Policy,
 *   HSTS, X-Content-Type-Options, X-Frame-Options and `Cache-Control: no-store`. The seven others in a page's set
 *   (COOP, Origin-Agent-Cluster, X-DNS-Prefetch-Control, X-Download-Options, X-Permitted-Cross-Domain-Policies,
 *   X-XSS-Protection, Permissions-Policy) govern a document a browser renders, which the CSP above already forbids
 *   a JSON answer to be; sending them cost a small answer about a fifth of its requests per second
 *   (docs/decisions.md "Security headers", docs/performance.md).
 * - **A route under /api that sends a document** (the sandbox checkout page, a KYC file, a project's picture or
 *   document) adds DOCUMENT_HEADERS (lib/security-headers.ts) and its own CSP.
 *
 * They never vary by request, so helmet is asked once at boot for the headers of these options and one synchronous
 * hook sets them with `reply.headers()`: @fastify/helmet runs helmet's middleware (and its CSP builder) in two hooks
 * on every request, the largest cost of a small API answer (docs/decisions.md, "Security headers"). A route may
 * still replace one (project assets set their own cache).
 */
export async function registerSecurityHeaders(app: FastifyInstance, { inlineScripts = [] }: { inlineScripts?: string[] } = {}) {
  const page = pageHeaders(inlineScripts);
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(isApiRequest(request) ? API_HEADERS : page);
    done();
  });
}

/**
 * Whether a request is for the API. The router matches the path it has percent-decoded (`/%61pi/users/profile`
 * reaches `/api/users/profile`), so a matched request is judged by its route's pattern, never by the raw URL; one
 * that matched no route, by its path decoded the same way (`isApiPath`).
 */
export function isApiRequest(request: FastifyRequest): boolean {
  const route = request.routeOptions.url;
  return route !== undefined ? route.startsWith('/api') : isApiPath(request.url);
}

/** Whether a raw URL's path, percent-decoded, is under /api (a path that cannot be decoded is not). */
export function isApiPath(url: string): boolean {
  const path = url.split('?')[0]!;
  try {
    return /^\/api(?:\/|$)/.test(decodeURIComponent(path));
  } catch {
    return false;
  }
}

/**
 * A JSON answer's headers on a reply no hook has touched: the router's own errors (plugins/errors.ts), raised before
 * any route or hook runs, answer in JSON with the same set as every other JSON answer.
 */
export function setApiHeaders(reply: FastifyReply) {
  reply.headers(API_HEADERS);
}

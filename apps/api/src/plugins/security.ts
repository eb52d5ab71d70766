import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { fastifySymbol } from '../lib/fastify-internals';

/**
 * Scripts only from our own origin, plus the page's own inline scripts named by their hash (the theme and session
 * check before the first paint, apps/web/index.html); inline styles are allowed because the toast library
 * injects its CSS at run time and the build inlines the stylesheet.
 */
const helmetOptions = (inlineScripts: string[]): HelmetOptions => ({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", ...inlineScripts],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      formAction: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      frameAncestors: ["'none'"],
    },
  },
  crossOriginEmbedderPolicy: false,
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  strictTransportSecurity: { maxAge: 31536000, includeSubDomains: true },
});

/** The headers helmet sets for these options, read once from a recording response. */
function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: unknown) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/**
 * The CSP of every JSON answer (and of the router's own errors, plugins/errors.ts): nothing may load, run, frame
 * it or post from it. A JSON answer is no page, so it needs none of the page's sources; should a browser ever
 * render one as a page, it can do nothing. `script-src`, `object-src` and `base-uri` are named as well, though
 * `default-src 'none'` already covers the first two, so the policy reads the same as the pages' on what issue 2
 * asks for by name.
 */
export const API_CONTENT_SECURITY_POLICY =
  "default-src 'none';script-src 'self';object-src 'none';base-uri 'none';form-action 'none';frame-ancestors 'none'";

/**
 * The CSP of a stored file a browser shows in a tab (a project's picture or document): it may show the image (the
 * browser's image page styles it inline) and nothing else; Chromium's PDF viewer runs under it.
 */
export const FILE_CONTENT_SECURITY_POLICY =
  "default-src 'none';img-src 'self';style-src 'unsafe-inline';object-src 'none';base-uri 'none';form-action 'none';frame-ancestors 'none'";

/** Headers that protect every answer, whatever it holds (OWASP's REST Security Cheat Sheet sends these on an API). */
const ANY_ANSWER = ['cross-origin-resource-policy', 'referrer-policy', 'strict-transport-security', 'x-content-type-options', 'x-frame-options'];

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
 *   document) adds {@link DOCUMENT_HEADERS} and its own CSP.
 *
 * They never vary by request, so they are worked out once at boot and set by one synchronous hook: @fastify/helmet
 * rebuilt helmet (and re-parsed the CSP) in two hooks on every request, the largest cost of a small API answer
 * (docs/performance.md). A route may still replace one (project assets set their own cache).
 */
export async function registerSecurityHeaders(app: FastifyInstance, { inlineScripts = [] }: { inlineScripts?: string[] } = {}) {
  const page = pageHeaders(inlineScripts);
  app.addHook('onRequest', (request, reply, done) => {
    setHeaders(reply, request.url.startsWith('/api') ? API_HEADERS : page);
    done();
  });
}

const pageHeaders = (inlineScripts: string[]): Record<string, string> => ({
  ...helmetHeaders(helmetOptions(inlineScripts)),
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
});

/** A page's set apart from its CSP, the only header that depends on the pages' inline scripts. */
const { 'content-security-policy': _pageCsp, ...pageWithoutCsp } = pageHeaders([]);

/** A JSON answer's set (see registerSecurityHeaders); not frozen, as it is copied into every JSON answer's headers. */
const API_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': API_CONTENT_SECURITY_POLICY,
  ...Object.fromEntries(ANY_ANSWER.map((name) => [name, pageWithoutCsp[name]!])),
  'cache-control': 'no-store',
};

/**
 * What a page's set has beyond a JSON answer's, for a route under /api that sends a document a browser renders
 * (it sets its own CSP beside these).
 */
export const DOCUMENT_HEADERS: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(Object.entries(pageWithoutCsp).filter(([name]) => !ANY_ANSWER.includes(name))),
);

/**
 * A JSON answer's headers on a reply no hook has touched: the router's own errors (plugins/errors.ts), raised before
 * any route or hook runs, answer in JSON with the same set as every other JSON answer.
 */
export function setApiHeaders(reply: FastifyReply) {
  setHeaders(reply, API_HEADERS);
}

/** Where Fastify keeps a reply's headers until it writes them (fastify/lib/symbols.js). */
const REPLY_HEADERS = 'fastify.reply.headers';
let replyHeaders: symbol | null | undefined;

/**
 * Sets headers whose names are already lower-case on a reply, in one copy into the object Fastify writes them
 * from, as `reply.header()` would store each (lower-cased name, value). `reply.headers()` calls `reply.header()`
 * for each one: about 2 µs of a small answer (docs/performance.md). Should Fastify ever keep its headers
 * elsewhere, this falls back to `reply.headers()`; security-headers tests check what is sent either way.
 */
function setHeaders(reply: FastifyReply, headers: Record<string, string>) {
  replyHeaders ??= fastifySymbol(reply, REPLY_HEADERS);
  const target = replyHeaders && (reply as unknown as Record<symbol, unknown>)[replyHeaders];
  if (target && typeof target === 'object') Object.assign(target, headers);
  else reply.headers(headers);
}

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
 * Security headers on every response. They never vary by request, so they are worked out once at boot and
 * set by one synchronous hook: @fastify/helmet rebuilt helmet (and re-parsed the CSP) in two hooks on every
 * request, the largest cost of a small API answer (docs/performance.md). A route may still replace one
 * (the KYC file and sandbox checkout set their own CSP; project assets their own cache).
 */
export async function registerSecurityHeaders(app: FastifyInstance, { inlineScripts = [] }: { inlineScripts?: string[] } = {}) {
  const everywhere = {
    ...helmetHeaders(helmetOptions(inlineScripts)),
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
  };
  const api = { ...everywhere, 'cache-control': 'no-store' };
  app.addHook('onRequest', (request, reply, done) => {
    setHeaders(reply, request.url.startsWith('/api') ? api : everywhere);
    done();
  });
}

/** Where Fastify keeps a reply's headers until it writes them (fastify/lib/symbols.js). */
const REPLY_HEADERS = 'fastify.reply.headers';
let replyHeaders: symbol | null | undefined;

/**
 * Sets headers whose names are already lower-case on a reply, in one copy into the object Fastify writes them
 * from, as `reply.header()` would store each (lower-cased name, value). `reply.headers()` calls `reply.header()`
 * for each of the 16: about 2 µs of a small answer (docs/performance.md). Should Fastify ever keep its headers
 * elsewhere, this falls back to `reply.headers()`; security-headers tests check what is sent either way.
 */
function setHeaders(reply: FastifyReply, headers: Record<string, string>) {
  replyHeaders ??= fastifySymbol(reply, REPLY_HEADERS);
  const target = replyHeaders && (reply as unknown as Record<symbol, unknown>)[replyHeaders];
  if (target && typeof target === 'object') Object.assign(target, headers);
  else reply.headers(headers);
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

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
    reply.headers(request.url.startsWith('/api') ? api : everywhere);
    done();
  });
}

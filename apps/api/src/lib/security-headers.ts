import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

// The header sets, computed once at boot; plugins/security.ts sets them on every answer, and a route that sends a
// document (modules) adds DOCUMENT_HEADERS itself.

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

export const pageHeaders = (inlineScripts: string[]): Record<string, string> => ({
  ...helmetHeaders(helmetOptions(inlineScripts)),
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
});

/** A page's set apart from its CSP, the only header that depends on the pages' inline scripts. */
const { 'content-security-policy': _pageCsp, ...pageWithoutCsp } = pageHeaders([]);

/** A JSON answer's set (see registerSecurityHeaders). */
export const API_HEADERS: Readonly<Record<string, string>> = {
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


import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DEFAULT_CONTACT, messages, telHref } from '@terrafund/contracts';
import { escapeHtml } from '../lib/html';

const isSourceMap = (pathname: string) => /\.map$/i.test(pathname);
/** Vite names every file under assets/ by its content hash, so a changed file has a new name. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

/**
 * The built web app as the server serves it, read once at boot: its folder; the pages the build made for
 * particular addresses (apps/web/scripts/prerender.mjs, dist/prerendered/pages.json: the landing and sign-in pages
 * drawn in advance, so a first visit paints from the HTML alone, and the member's screens with their modules named
 * for preloading; every other address gets index.html); and the CSP sources of the inline scripts of all those
 * pages (the theme and session check that must run before the first paint, and the pages' start), each allowed by
 * its SHA-256 so no other inline script can run. Undefined when there is no build.
 */
export type WebBuild = { distDir: string; pages: Map<string, string>; ownCopies: Map<string, OwnCopy>; inlineScripts: string[] };
/** A drawn page with the server's own details in it, and its compressed forms, made once at boot. */
type OwnCopy = { identity: Buffer; br: Buffer; gzip: Buffer; etag: string };
type Contact = { email: string; phone: string };

/**
 * The landing page is drawn at build with the default contact details (DEFAULT_CONTACT); a server configured with
 * its own (CONTACT_EMAIL, CONTACT_PHONE) sends its own in the page, as the app would show them once it runs.
 */
function withContact(html: string, contact: Contact): string {
  const replacements = new Map<string, string>([
    [escapeHtml(telHref(DEFAULT_CONTACT.phone)), escapeHtml(telHref(contact.phone))],
    [escapeHtml(DEFAULT_CONTACT.email), escapeHtml(contact.email)],
    [escapeHtml(DEFAULT_CONTACT.phone), escapeHtml(contact.phone)],
  ]);
  const pattern = new RegExp([...replacements.keys()].map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
  return html.replace(pattern, (found) => replacements.get(found)!);
}

export function readWebBuild(distDir: string | undefined, contact: Contact = DEFAULT_CONTACT): WebBuild | undefined {
  if (!distDir || !existsSync(path.join(distDir, 'index.html'))) return undefined;
  const list = path.join(distDir, 'prerendered', 'pages.json');
  const listed = existsSync(list) ? Object.entries(JSON.parse(readFileSync(list, 'utf8')) as Record<string, string>) : [];
  const pages = new Map(listed.filter(([, file]) => existsSync(path.join(distDir, file))));
  const inlineScripts = new Set<string>();
  const ownCopies = new Map<string, OwnCopy>();
  const ownContact = contact.email !== DEFAULT_CONTACT.email || contact.phone !== DEFAULT_CONTACT.phone;
  for (const file of ['index.html', ...pages.values()]) {
    const html = readFileSync(path.join(distDir, file), 'utf8');
    for (const [, body] of html.matchAll(/<script(?:\s[^>]*)?>([\s\S]*?)<\/script>/g)) {
      if (body!.trim()) inlineScripts.add(`'sha256-${createHash('sha256').update(body!).digest('base64')}'`);
    }
    const own = ownContact ? withContact(html, contact) : html;
    if (own !== html) {
      const identity = Buffer.from(own);
      ownCopies.set(file, {
        identity,
        // Quality 9, not the build's 11: a tenth of the time at boot (26 against 210 ms for the landing page) for
        // a page 10 % larger.
        br: brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }),
        gzip: gzipSync(identity, { level: 9 }),
        etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`,
      });
    }
  }
  return { distDir, pages, ownCopies, inlineScripts: [...inlineScripts] };
}

/** A page made at boot, in the encoding the request's Accept-Encoding prefers (brotli, then gzip). */
function sendOwnCopy(request: FastifyRequest, reply: FastifyReply, page: OwnCopy) {
  const accepted = String(request.headers['accept-encoding'] ?? '');
  const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : undefined;
  reply.header('content-type', 'text/html; charset=utf-8').header('vary', 'accept-encoding').header('etag', page.etag);
  if (request.headers['if-none-match'] === page.etag) return reply.status(304).send();
  if (encoding) reply.header('content-encoding', encoding);
  return reply.send(encoding ? page[encoding] : page.identity);
}

/**
 * Serves the built web app: hashed assets cached for a year, the pages and the other unhashed files revalidated
 * on every use, and every non-API GET that is not a file answered with the page the build made for that address,
 * or index.html, so client-side routes load. The build writes each text file also as .br and .gz
 * (apps/web/vite.config.ts); the one the request's Accept-Encoding prefers is sent as it is, so nothing is
 * compressed per request.
 */
export async function registerWebApp(app: FastifyInstance, web: WebBuild | undefined) {
  if (web) {
    await app.register(fastifyStatic, {
      root: web.distDir,
      wildcard: false,
      index: false,
      // A source map would hand anyone our source; the build makes none, and one that lands in dist anyway
      // (a local build with maps on) is not served: 404, not index.html.
      allowedPath: (pathname) => !isSourceMap(pathname),
      preCompressed: true,
      // The build manifest (dist/.vite) is for the bundle-size check, not for browsers.
      dotfiles: 'ignore',
      setHeaders(reply, filePath) {
        reply.header('cache-control', filePath.includes(`${path.sep}assets${path.sep}`) ? IMMUTABLE_CACHE : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0]!;
    if (!web || pathname.startsWith('/api') || isSourceMap(pathname) || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.status(404).send({ message: messages.common.routeNotFound(request.method, pathname), code: 'NOT_FOUND' });
    }
    const file = web.pages.get(pathname) ?? 'index.html';
    reply.header('cache-control', 'no-cache');
    const own = web.ownCopies.get(file);
    return own ? sendOwnCopy(request, reply, own) : reply.sendFile(file);
  });
}

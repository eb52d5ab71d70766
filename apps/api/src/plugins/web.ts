import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DEFAULT_CONTACT, messages, telHref } from '@terrafund/contracts';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGE_STORAGE_KEY, languageOfHeader, type Language } from '@terrafund/contracts/i18n';
import { escapeHtml } from '../lib/html';
import { isApiPath } from './security';

const isSourceMap = (pathname: string) => /\.map$/i.test(pathname);
/** Vite names every file under assets/ by its content hash, so a changed file has a new name. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

/**
 * The built web app as the server serves it, read once at boot: its folder; the pages the build made for
 * particular addresses (apps/web/scripts/prerender.mjs, dist/prerendered/pages.json: the landing and sign-in pages
 * drawn in advance, so a first visit paints from the HTML alone, and the member's screens with their modules named
 * for preloading; every other address of the app gets index.html); which addresses are the app's at all
 * (dist/prerendered/routes.json: the route table's patterns) and the drawn page every other address gets with a
 * 404; and the CSP sources of the inline scripts of all those pages (the theme and session check that must run
 * before the first paint, and the pages' start), each allowed by its SHA-256 so no other inline script can run.
 * A drawn page is drawn once per language (issue 35): `pages` gives each address its file in each language (a
 * member's screen has one, in English, for all), and the visitor's language picks one (pageLanguage).
 * Undefined when there is no build.
 */
export type WebBuild = {
  distDir: string;
  pages: Map<string, PageFiles>;
  ownCopies: Map<string, OwnCopy>;
  inlineScripts: string[];
  /** Whether an address (its path) is one of the app's routes; every address is, for a build without a route list. */
  isRoute: (pathname: string) => boolean;
  /** The app's not-found screen drawn at build in each language, sent with a 404; JSON's 404 for a build without one. */
  notFound?: Partial<Record<Language, OwnCopy>> & { en: OwnCopy };
};
/** An address's page in each language it was drawn in; English always. */
type PageFiles = Partial<Record<Language, string>> & { en: string };
/** A page held in memory, with its compressed forms: a drawn page with the server's own details in it, made once at boot. */
type OwnCopy = { identity: Buffer; br: Buffer; gzip: Buffer; etag: string };
type Contact = { email: string; phone: string };
/** dist/prerendered/routes.json, written by apps/web/scripts/prerender.mjs. */
type RouteList = { routes: string[]; drawn: string[]; notFound: string; notFoundByLanguage?: Record<string, string> };

/** A page's files by language, from pages.json's entry: one file (every language's), or one per language. */
function filesByLanguage(entry: string | Record<string, string>, exists: (file: string) => boolean): PageFiles | undefined {
  const files = Object.entries(typeof entry === 'string' ? { en: entry } : entry).filter(
    ([language, file]) => isLanguage(language) && exists(file),
  );
  const byLanguage = Object.fromEntries(files) as Partial<Record<Language, string>>;
  return byLanguage.en ? { ...byLanguage, en: byLanguage.en } : undefined;
}

/**
 * The language a page is sent in (issue 35): the visitor's choice in the language menu (the `lang` cookie, set with
 * localStorage's), else the best match of Accept-Language, else English.
 */
export function pageLanguage(request: FastifyRequest): Language {
  const cookie = String(request.headers.cookie ?? '')
    .split(';')
    .map((part) => part.trim().split('='))
    .find(([name]) => name === LANGUAGE_STORAGE_KEY)?.[1];
  if (isLanguage(cookie)) return cookie;
  const header = request.headers['accept-language'];
  return header ? languageOfHeader(Array.isArray(header) ? header.join(',') : header) : DEFAULT_LANGUAGE;
}

/**
 * The app's route patterns (`/projects/:id`) as one test of a path, matched as the app's router matches them:
 * regardless of case, with or without a trailing slash, a `:param` being one whole segment, on the decoded path.
 * The build refuses patterns with anything else (src/prerender.tsx, routePatterns).
 */
export function routeMatcher(patterns: string[]): (pathname: string) => boolean {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const source = (pattern: string) =>
    pattern
      .split('/')
      .slice(1)
      .filter(Boolean)
      .map((segment) => (segment.startsWith(':') ? '/[^/]+' : `/${escape(segment)}`))
      .join('');
  const routes = new RegExp(`^(?:${patterns.map(source).join('|')})/?$`, 'i');
  return (pathname) => {
    try {
      return routes.test(decodeURI(pathname));
    } catch {
      return false;
    }
  };
}

const etagOf = (body: Buffer) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

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
  const exists = (file: string) => existsSync(path.join(distDir, file));
  const listed = existsSync(list) ? Object.entries(JSON.parse(readFileSync(list, 'utf8')) as Record<string, string | Record<string, string>>) : [];
  const pages = new Map(
    listed.flatMap(([pathname, entry]) => {
      const files = filesByLanguage(entry, exists);
      return files ? [[pathname, files] as const] : [];
    }),
  );
  const routeList = path.join(distDir, 'prerendered', 'routes.json');
  const routes = existsSync(routeList) ? (JSON.parse(readFileSync(routeList, 'utf8')) as RouteList) : undefined;
  const notFoundFiles = routes?.notFound ? filesByLanguage(routes.notFoundByLanguage ?? routes.notFound, exists) : undefined;
  const inlineScripts = new Set<string>();
  const ownCopies = new Map<string, OwnCopy>();
  const ownContact = contact.email !== DEFAULT_CONTACT.email || contact.phone !== DEFAULT_CONTACT.phone;
  const allFiles = [...pages.values(), ...(notFoundFiles ? [notFoundFiles] : [])].flatMap((files) => Object.values(files));
  for (const file of new Set(['index.html', ...allFiles])) {
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
        etag: etagOf(identity),
      });
    }
  }
  const built = (file: string): OwnCopy => {
    const identity = readFileSync(path.join(distDir, file));
    const compressed = (suffix: string, compress: (body: Buffer) => Buffer) =>
      existsSync(path.join(distDir, file + suffix)) ? readFileSync(path.join(distDir, file + suffix)) : compress(identity);
    return { identity, br: compressed('.br', (body) => brotliCompressSync(body)), gzip: compressed('.gz', (body) => gzipSync(body)), etag: etagOf(identity) };
  };
  return {
    distDir,
    pages,
    ownCopies,
    inlineScripts: [...inlineScripts],
    isRoute: routes ? routeMatcher(routes.routes) : () => true,
    notFound: notFoundFiles
      ? (Object.fromEntries(Object.entries(notFoundFiles).map(([language, file]) => [language, ownCopies.get(file) ?? built(file)])) as WebBuild['notFound'])
      : undefined,
  };
}

/**
 * A page held in memory, in the encoding the request's Accept-Encoding prefers (brotli, then gzip). A 404 answer
 * carries no validator: there is nothing to revalidate in an address that is not a page.
 */
function sendCopy(request: FastifyRequest, reply: FastifyReply, page: OwnCopy, status = 200) {
  const accepted = String(request.headers['accept-encoding'] ?? '');
  const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : undefined;
  const vary = reply.getHeader('vary');
  reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding');
  if (status === 200) {
    reply.header('etag', page.etag);
    if (request.headers['if-none-match'] === page.etag) return reply.status(304).send();
  }
  if (encoding) reply.header('content-encoding', encoding);
  return reply.send(encoding ? page[encoding] : page.identity);
}

/**
 * Serves the built web app: hashed assets cached for a year, the pages and the other unhashed files revalidated
 * on every use, and every GET of an address of the app (a route of its router) that is not a file answered with
 * the page the build made for that address, or index.html, so client-side routes load. An address that is neither
 * answers 404 with the app's own not-found screen, drawn at build (a scanner probing for /backup.sql or /.env finds
 * nothing, and a monitor counts no page). The build writes each text file also as .br and .gz
 * (apps/web/vite.config.ts); the one the request's Accept-Encoding prefers is sent as it is, so nothing is
 * compressed per request.
 *
 * A form posted to an address of the app (the drawn sign-in form sent with scripts blocked, before its app could
 * send it) is answered 303 See Other to the same address: the browser shows the page again with a GET, and the
 * fields, never read, stay out of the address, the history and every log. Signing in needs the app.
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
    const routeNotFound = () =>
      reply.status(404).send({ message: messages.common.routeNotFound(request.method, pathname), code: 'NOT_FOUND' });
    if (!web || isApiPath(pathname) || isSourceMap(pathname)) return routeNotFound();
    const isRoute = web.isRoute(pathname);
    if (request.method === 'POST' && isRoute) return reply.redirect(request.url, 303);
    if (request.method !== 'GET' && request.method !== 'HEAD') return routeNotFound();
    reply.header('cache-control', 'no-cache');
    // A page drawn in several languages is a different page for another Accept-Language or `lang` cookie: a cache
    // keeps one per language (issue 35).
    const language = pageLanguage(request);
    const varies = (byLanguage: object | undefined) => {
      if (byLanguage && Object.keys(byLanguage).length > 1) reply.header('vary', 'Accept-Language, Cookie');
    };
    if (!isRoute) {
      if (!web.notFound) return routeNotFound();
      varies(web.notFound);
      return sendCopy(request, reply, web.notFound[language] ?? web.notFound.en, 404);
    }
    const files = web.pages.get(pathname);
    varies(files);
    const file = files ? (files[language] ?? files.en) : 'index.html';
    const own = web.ownCopies.get(file);
    return own ? sendCopy(request, reply, own) : reply.sendFile(file);
  });
}

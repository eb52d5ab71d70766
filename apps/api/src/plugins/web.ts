import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { messages } from '@terrafund/contracts';

const isSourceMap = (pathname: string) => /\.map$/i.test(pathname);
/** Vite names every file under assets/ by its content hash, so a changed file has a new name. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

/**
 * The pages the build made for particular addresses (apps/web/scripts/prerender.mjs, dist/prerendered/pages.json):
 * the landing and sign-in pages drawn in advance, so a first visit paints from the HTML alone, and the member's
 * screens with their modules named for preloading (issue 17). Every other address gets index.html.
 */
function pagesOf(distDir: string | undefined): Map<string, string> {
  const list = distDir ? path.join(distDir, 'prerendered', 'pages.json') : undefined;
  if (!list || !existsSync(list)) return new Map();
  const pages = JSON.parse(readFileSync(list, 'utf8')) as Record<string, string>;
  return new Map(Object.entries(pages).filter(([, file]) => existsSync(path.join(distDir!, file))));
}

/**
 * The CSP sources of the inline scripts of the pages the server sends (index.html and the pre-rendered pages: the
 * theme and session check that must run before the first paint, and the drawn pages' deferred start): each one
 * allowed by its SHA-256, so no other inline script can run.
 */
export function inlineScriptSources(distDir: string | undefined): string[] {
  if (!distDir) return [];
  const sources = new Set<string>();
  for (const file of ['index.html', ...pagesOf(distDir).values()]) {
    const page = path.join(distDir, file);
    if (!existsSync(page)) continue;
    for (const [, body] of readFileSync(page, 'utf8').matchAll(/<script(?:\s[^>]*)?>([\s\S]*?)<\/script>/g)) {
      if (body!.trim()) sources.add(`'sha256-${createHash('sha256').update(body!).digest('base64')}'`);
    }
  }
  return [...sources];
}

/**
 * Serves the built web app: hashed assets cached for a year, index.html and the other unhashed files
 * revalidated on every use, and every non-API GET that is not a file answered with index.html so client-side
 * routes load (or the page the build made for that address). The build writes each text file also as .br and .gz (apps/web/vite.config.ts); the one the
 * request's Accept-Encoding prefers is sent as it is, so nothing is compressed per request.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string | undefined) {
  const indexFile = distDir ? path.join(distDir, 'index.html') : undefined;
  const hasWeb = Boolean(indexFile && existsSync(indexFile));
  const pages = hasWeb ? pagesOf(distDir) : new Map<string, string>();
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: distDir!,
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
    if (!hasWeb || pathname.startsWith('/api') || isSourceMap(pathname) || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.status(404).send({ message: messages.common.routeNotFound(request.method, pathname), code: 'NOT_FOUND' });
    }
    return reply.header('cache-control', 'no-cache').sendFile(pages.get(pathname) ?? 'index.html');
  });
}

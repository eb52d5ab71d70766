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
 * Pages the build drew in advance (apps/web/scripts/prerender.mjs): a first visit to these addresses paints from
 * the HTML alone, before any script has loaded (issue 17).
 */
const PRERENDERED: Record<string, string> = { '/': 'prerendered/home.html', '/login': 'prerendered/login.html' };

/**
 * The CSP sources of the inline scripts of the pages the server sends (index.html and the pre-rendered pages: the
 * theme and session check that must run before the first paint, and the drawn pages' deferred start): each one
 * allowed by its SHA-256, so no other inline script can run.
 */
export function inlineScriptSources(distDir: string | undefined): string[] {
  if (!distDir) return [];
  const sources = new Set<string>();
  for (const file of ['index.html', ...Object.values(PRERENDERED)]) {
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
 * routes load (the landing and sign-in addresses with their pre-rendered page). The build writes each text file also as .br and .gz (apps/web/vite.config.ts); the one the
 * request's Accept-Encoding prefers is sent as it is, so nothing is compressed per request.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string | undefined) {
  const indexFile = distDir ? path.join(distDir, 'index.html') : undefined;
  const hasWeb = Boolean(indexFile && existsSync(indexFile));
  const prerendered = new Map(
    Object.entries(PRERENDERED).filter(([, file]) => hasWeb && existsSync(path.join(distDir!, file))),
  );
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
    return reply.header('cache-control', 'no-cache').sendFile(prerendered.get(pathname) ?? 'index.html');
  });
}

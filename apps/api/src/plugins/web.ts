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
 * The built web app as the server serves it, read once at boot: its folder; the pages the build made for
 * particular addresses (apps/web/scripts/prerender.mjs, dist/prerendered/pages.json: the landing and sign-in pages
 * drawn in advance, so a first visit paints from the HTML alone, and the member's screens with their modules named
 * for preloading; every other address gets index.html); and the CSP sources of the inline scripts of all those
 * pages (the theme and session check that must run before the first paint, and the pages' start), each allowed by
 * its SHA-256 so no other inline script can run. Undefined when there is no build.
 */
export type WebBuild = { distDir: string; pages: Map<string, string>; inlineScripts: string[] };

export function readWebBuild(distDir: string | undefined): WebBuild | undefined {
  if (!distDir || !existsSync(path.join(distDir, 'index.html'))) return undefined;
  const list = path.join(distDir, 'prerendered', 'pages.json');
  const listed = existsSync(list) ? Object.entries(JSON.parse(readFileSync(list, 'utf8')) as Record<string, string>) : [];
  const pages = new Map(listed.filter(([, file]) => existsSync(path.join(distDir, file))));
  const inlineScripts = new Set<string>();
  for (const file of ['index.html', ...pages.values()]) {
    for (const [, body] of readFileSync(path.join(distDir, file), 'utf8').matchAll(/<script(?:\s[^>]*)?>([\s\S]*?)<\/script>/g)) {
      if (body!.trim()) inlineScripts.add(`'sha256-${createHash('sha256').update(body!).digest('base64')}'`);
    }
  }
  return { distDir, pages, inlineScripts: [...inlineScripts] };
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
    return reply.header('cache-control', 'no-cache').sendFile(web.pages.get(pathname) ?? 'index.html');
  });
}

// After `vite build`: the landing page and the sign-in page drawn into their own copies of index.html
// (dist/prerendered/), and the stylesheet inlined into every page so nothing blocks the first paint (issue 17).
// The screens are rendered by React on the server side of Vite (ssrLoadModule of src/prerender.tsx) inside a
// jsdom window with empty storage: exactly what a first-time visitor sees before any request is answered.
// The server sends dist/prerendered/<name>.html for "/" and "/login" (apps/api/src/plugins/web.ts).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { JSDOM } from 'jsdom';
import { createServer } from 'vite';

const webRoot = path.resolve(import.meta.dirname, '..');
const dist = path.join(webRoot, 'dist');
export const PRERENDERED = { '/': 'home.html', '/login': 'login.html' };

/** Writes a file with its .br and .gz beside it, as the build does for every text file. */
function writeCompressed(file, text) {
  const body = Buffer.from(text);
  writeFileSync(file, body);
  writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
}

/**
 * A drawn page needs no script to be seen: its app starts after the first frame is on screen, so downloading and
 * running the scripts never holds the first paint back (they are still fetched early by the modulepreload links).
 * One inline script for every page, reading the entry's address from its own attribute: the server allows it by
 * its hash (apps/api/src/plugins/web.ts).
 */
function startAfterFirstPaint(html) {
  return html.replace(/<script type="module" crossorigin src="([^"]+)"><\/script>/, (_, src) =>
    `<script data-entry="${src}">(function(s){requestAnimationFrame(function(){setTimeout(function(){import(s.dataset.entry)})})})(document.currentScript)</script>`,
  );
}

/** The built index.html with its stylesheet link replaced by the stylesheet itself. */
function inlineStylesheet(html) {
  return html.replace(/<link rel="stylesheet"[^>]*href="(\/assets\/[^"]+\.css)"[^>]*>/g, (_, href) => {
    const css = readFileSync(path.join(dist, href), 'utf8');
    if (css.includes('</style')) throw new Error(`${href} cannot be inlined`);
    return `<style>${css}</style>`;
  });
}

const dom = new JSDOM('<!doctype html><html lang="en" class="dark"><head></head><body><div id="root"></div></body></html>', {
  url: 'http://localhost/',
});
for (const key of ['window', 'document', 'navigator', 'localStorage', 'sessionStorage', 'location', 'history', 'matchMedia']) {
  Object.defineProperty(globalThis, key, { value: dom.window[key], configurable: true, writable: true });
}

const vite = await createServer({
  root: webRoot,
  configFile: path.join(webRoot, 'vite.config.ts'),
  server: { middlewareMode: true, hmr: false, ws: false },
  appType: 'custom',
  logLevel: 'warn',
});
try {
  const { prerender } = await vite.ssrLoadModule('/src/prerender.tsx');
  const shell = inlineStylesheet(readFileSync(path.join(dist, 'index.html'), 'utf8'));
  writeCompressed(path.join(dist, 'index.html'), shell);
  const outDir = path.join(dist, 'prerendered');
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir);
  for (const [pathname, file] of Object.entries(PRERENDERED)) {
    const markup = await prerender(pathname);
    if (!markup.includes('<main')) throw new Error(`${pathname} pre-rendered without its <main>`);
    // React writes the screen's <title> where it renders it; the page's own belongs in <head>.
    const title = markup.match(/^<title>.*?<\/title>/)?.[0] ?? '';
    const page = startAfterFirstPaint(shell)
      .replace(/<title>.*?<\/title>/, title || '$&')
      .replace('<div id="root"></div>', `<div id="root" data-prerendered>${markup.slice(title.length)}</div>`);
    writeCompressed(path.join(outDir, file), page);
    console.log(`pre-rendered ${pathname} → dist/prerendered/${file} (${Math.round(page.length / 1024)} KiB)`);
  }
} finally {
  await vite.close();
  dom.window.close();
}
// The rendered app leaves timers behind (TanStack Query's cache collection, 5 minutes): the work is done.
process.exit(0);

// After `vite build`: the landing page and the sign-in page drawn into their own copies of index.html
// (dist/prerendered/), once per language (home.html, home.es.html, home.fr.html: issue 35), and the stylesheet inlined into every page so nothing blocks the first paint (issue 17); a
// drawn page inlines only the rules its elements use (page-stylesheet.mjs).
// The screens are rendered by React on the server side of Vite (ssrLoadModule of src/prerender.tsx) inside a
// jsdom window with empty storage: exactly what a first-time visitor sees before any request is answered.
// A member's screens get a copy that names their modules for preloading. dist/prerendered/pages.json says which
// page the server sends for which address, and dist/prerendered/routes.json which addresses are the app's at all
// (the others get the drawn not-found page with a 404) and which pages were drawn (apps/api/src/plugins/web.ts).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { JSDOM } from 'jsdom';
import { createServer } from 'vite';
import { pageStylesheet } from './page-stylesheet.mjs';

const webRoot = path.resolve(import.meta.dirname, '..');
const dist = path.join(webRoot, 'dist');
/** Drawn at build: what a first-time visitor sees there. */
const DRAWN = { '/': 'home.html', '/login': 'login.html' };
/** The app's screen for an address no route matches, drawn from one such address; the server sends it with a 404. */
const NOT_FOUND = { from: '/404', file: 'not-found.html' };
/**
 * A member's screens cannot be drawn ahead (they show the member's own data), but their pages can name the
 * screen's modules up front, so the browser fetches them with the app instead of after it (issue 17: LCP).
 */
const APP_LAYOUT = 'src/features/layout/components/app-layout.tsx';
const PRELOADED = Object.fromEntries(
  ['dashboard', 'wallet', 'projects', 'profile', 'kyc'].map((screen) => [`/${screen}`, [APP_LAYOUT, `src/app/routes/${screen}.tsx`]]),
);

/** The built files of these source modules and of everything they import, in the build manifest. */
function chunksOf(manifest, sources) {
  const files = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk || key === 'index.html' || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const source of sources) {
    if (!manifest[source]) throw new Error(`${source} is not in the build manifest`);
    visit(source);
  }
  return [...files];
}

/** An attribute's value escaped as React's server renderer escapes it, so the server finds it as it finds the markup's. */
const escapeAttribute = (value) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' })[c]);

/** Writes a file with its .br and .gz beside it, as the build does for every text file. */
function writeCompressed(file, text) {
  const body = Buffer.from(text);
  writeFileSync(file, body);
  writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
}

/**
 * Every page starts its app in steps: each chunk the page needs (React, the router, the screen's components…)
 * is evaluated in a task of its own, in the order they import each other, and the entry last, so no single task
 * evaluates the whole app (issue 17: Total Blocking Time on a slow phone). The chunks are all preloaded at once.
 *
 * A drawn page is whole without a script: its links load their pages, and what the visitor presses or sends is
 * held by index.html until the app runs. So its app starts when the visitor first does something with the page
 * (touches, clicks, moves the pointer over it, focuses a field or link, presses a key, changes a field: a language
 * chosen), and at once when a session is stored, the light theme or another language remembered (the page was drawn
 * for none of them). A visitor who only reads spends no
 * processor time on scripts, and the first paint never waits for one (issue 17: LCP and TBT on a slow phone;
 * docs/decisions.md "Web"). Two seconds after the page has loaded, its scripts are prefetched into the cache at
 * low priority, so starting is not a download.
 * One inline script for every page, reading the addresses from its own attributes: the server allows it by its
 * hash (apps/api/src/plugins/web.ts).
 */
const START_IN_STEPS = `(function (s) {
  var started = false;
  var preload = s.dataset.preload.split(' ').filter(Boolean);
  var steps = s.dataset.steps.split(' ').filter(Boolean);
  var events = ['pointerdown', 'pointerover', 'touchstart', 'focusin', 'keydown', 'change'];
  var stylesheet = s.dataset.stylesheet;
  function links(rel) {
    (rel === 'prefetch' && stylesheet ? preload.concat(stylesheet) : preload).forEach(function (href) {
      var link = document.createElement('link');
      link.rel = rel;
      if (rel === 'modulepreload') link.crossOrigin = '';
      link.href = href;
      document.head.appendChild(link);
    });
  }
  function start() {
    if (started) return;
    started = true;
    events.forEach(function (type) { document.removeEventListener(type, start, true); });
    links('modulepreload');
    // A drawn page carries only the rules its own elements use; the app's screens need the whole stylesheet,
    // so the app draws once it has loaded (or failed to: the app still works, less well dressed).
    var styled = stylesheet
      ? new Promise(function (resolve) {
          var link = document.createElement('link');
          link.rel = 'stylesheet';
          link.href = stylesheet;
          link.onload = link.onerror = resolve;
          document.head.appendChild(link);
        })
      : Promise.resolve();
    // One chunk per task, each after the ones it imports (so each import evaluates that chunk alone), the entry
    // last: no single task evaluates the whole app.
    steps.concat(s.dataset.entry).reduce(function (previous, href) {
      return previous.then(function () {
        return new Promise(function (resolve) { setTimeout(resolve); });
      }).then(function () {
        if (href === s.dataset.entry) return styled;
      }).then(function () { return import(href); });
    }, Promise.resolve());
  }
  // The page is drawn for a first visit (no session, the dark theme, the language the server chose): with a session,
  // the light theme or another language remembered, parts of it are not this visitor's (the header's buttons, its
  // words), and the app draws them at once.
  var html = document.documentElement;
  if (
    !s.hasAttribute('data-on-interaction') ||
    html.classList.contains('has-session') ||
    html.classList.contains('other-language') ||
    !html.classList.contains('dark')
  )
    return start();
  events.forEach(function (type) { document.addEventListener(type, start, { capture: true, passive: true }); });
  // Fetched by the browser, not by script (a fetch() each would cost the main thread more than the page did), and
  // a while after the page has loaded, so that on a slow connection they never take bandwidth from what the page
  // shows (its largest paint, its pictures).
  addEventListener('load', function () {
    setTimeout(function () {
      if (!started) links('prefetch');
    }, 2000);
  });
})(document.currentScript);`;

/**
 * The chunks the entry and `sources` (manifest keys) need, each after the chunks it imports, leaving out the
 * entry and every chunk that imports it (the app's router loads those once the entry has run).
 */
function evaluationSteps(manifest, sources) {
  const order = [];
  const state = new Map();
  const needsEntry = (key) => {
    if (!state.has(key)) {
      state.set(key, false);
      state.set(key, key === 'index.html' || (manifest[key].imports ?? []).some(needsEntry));
    }
    return state.get(key);
  };
  const visited = new Set();
  const visit = (key) => {
    if (visited.has(key) || needsEntry(key)) return;
    visited.add(key);
    for (const imported of manifest[key].imports ?? []) visit(imported);
    order.push(`/${manifest[key].file}`);
  };
  for (const imported of manifest['index.html'].imports ?? []) visit(imported);
  for (const source of sources) {
    if (!manifest[source]) throw new Error(`${source} is not in the build manifest`);
    for (const imported of manifest[source].imports ?? []) visit(imported);
    visit(source);
  }
  return order;
}

function startInSteps(html, { onInteraction, steps, stylesheet }) {
  const preloads = [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g)];
  const entry = html.match(/<script type="module" crossorigin src="([^"]+)"><\/script>/);
  if (!entry) throw new Error('index.html has no module entry');
  const hrefs = preloads.map((m) => m[1]);
  if (!steps.some((href) => /\/react-dom-[\w-]+\.js$/.test(href))) throw new Error('no react-dom chunk among the steps (apps/web/vite.config.ts)');
  // A page that starts at once keeps its preload links where the browser sees them first; a drawn page adds them
  // when it starts.
  const start = `<script data-entry="${entry[1]}" data-preload="${onInteraction ? [entry[1], ...hrefs].join(' ') : ''}" data-steps="${steps.join(' ')}"${stylesheet ? ` data-stylesheet="${stylesheet}"` : ''}${onInteraction ? ' data-on-interaction' : ''}>${START_IN_STEPS}</script>`;
  // The entry itself is preloaded too: imported last, it must not wait for the others to download first.
  const entryPreload = `<link rel="modulepreload" crossorigin href="${entry[1]}">`;
  let out = html.replace(entry[0], () => (onInteraction ? start : entryPreload + start));
  if (onInteraction) for (const [link] of preloads) out = out.replace(link, '');
  return out;
}

const STYLESHEET_LINK = /<link rel="stylesheet"[^>]*href="(\/assets\/[^"]+\.css)"[^>]*>/;

/** The built index.html's one stylesheet: its address and its text. */
function builtStylesheet(html) {
  const links = html.match(new RegExp(STYLESHEET_LINK, 'g')) ?? [];
  if (links.length !== 1) throw new Error(`index.html links ${links.length} stylesheets; one is expected`);
  const href = html.match(STYLESHEET_LINK)[1];
  return { href, css: readFileSync(path.join(dist, href), 'utf8') };
}

/** index.html with its stylesheet link replaced by `css` itself. */
function inlineStylesheet(html, css) {
  if (css.includes('</style')) throw new Error('the stylesheet cannot be inlined');
  return html.replace(STYLESHEET_LINK, () => `<style>${css}</style>`);
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
/**
 * A form of a drawn page can be sent before its app runs, or with scripts blocked: it must be posted, so its fields
 * (a password) never go into an address, a history entry or a proxy's log.
 */
function checkFormsArePosted(pathname, markup) {
  for (const [form] of markup.matchAll(/<form\b[^>]*>/g)) {
    if (!/\smethod="post"/i.test(form)) throw new Error(`${pathname} draws a form that is not posted (method="post"): ${form}`);
  }
}

try {
  const { prerender, earlyRequests, routePatterns, drawnConfigAttributes, drawnLanguages, siteTitle } = await vite.ssrLoadModule('/src/prerender.tsx');
  // The public settings the pages are drawn with, on #root, where the app reads them (src/app/drawn-page.ts) and a
  // server with its own writes those instead (apps/api/src/plugins/web.ts).
  const rootAttributes = drawnConfigAttributes.map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`).join('');
  const built = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const stylesheet = builtStylesheet(built);
  const shell = inlineStylesheet(built, stylesheet.css);
  const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
  const appSteps = evaluationSteps(manifest, []);
  const startsAtOnce = startInSteps(shell, { onInteraction: false, steps: appSteps });
  writeCompressed(path.join(dist, 'index.html'), startsAtOnce);
  const outDir = path.join(dist, 'prerendered');
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir);
  const pages = {};
  /** `home.html` in English, `home.es.html` in Spanish: a drawn page's file in a language. */
  const fileIn = (file, language) => (language === 'en' ? file : file.replace(/\.html$/, `.${language}.html`));
  const drawPage = async (pathname, file, language) => {
    const markup = await prerender(pathname, language);
    if (!markup.includes('<main')) throw new Error(`${pathname} pre-rendered without its <main>`);
    checkFormsArePosted(pathname, markup);
    // React writes the screen's <title> where it renders it; the page's own goes into <head>, before the
    // site's: it names the page until the app runs, React adopts it, and when the app later removes it (another
    // screen) the site's title is still there, as on any other page.
    const title = markup.match(/^<title>.*?<\/title>/)?.[0] ?? '';
    const site = `<title>${escapeAttribute(await siteTitle(language))}</title>`;
    const drawnShell = inlineStylesheet(built, pageStylesheet(stylesheet.css, built + markup));
    if (!/<html lang="en"/.test(drawnShell)) throw new Error('index.html has no <html lang="en">');
    const page = startInSteps(drawnShell, { onInteraction: true, steps: appSteps, stylesheet: stylesheet.href })
      // The page's language, which the app starts in (main.tsx) and index.html's first script compares with the
      // visitor's remembered choice.
      .replace(/<html lang="en"/, `<html lang="${language}"`)
      .replace(/<title>.*?<\/title>/, () => title + site)
      .replace('<div id="root"></div>', `<div id="root" data-prerendered${rootAttributes}>${markup.slice(title.length)}</div>`);
    const out = fileIn(file, language);
    writeCompressed(path.join(outDir, out), page);
    console.log(`pre-rendered ${pathname} (${language}) → dist/prerendered/${out} (${Math.round(page.length / 1024)} KiB)`);
    return `prerendered/${out}`;
  };
  /** A page drawn in every language: its file in each. */
  const drawEveryLanguage = async (pathname, file) => {
    const files = {};
    for (const language of drawnLanguages) files[language] = await drawPage(pathname, file, language);
    return files;
  };
  for (const [pathname, file] of Object.entries(DRAWN)) pages[pathname] = await drawEveryLanguage(pathname, file);
  const notFoundByLanguage = await drawEveryLanguage(NOT_FOUND.from, NOT_FOUND.file);
  for (const [pathname, sources] of Object.entries(PRELOADED)) {
    const links = chunksOf(manifest, sources)
      .filter((file) => !shell.includes(`/${file}"`))
      .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)
      .join('');
    const file = `${pathname.slice(1)}.html`;
    const page = startInSteps(shell, { onInteraction: false, steps: evaluationSteps(manifest, sources) })
      .replace('</head>', `${links}</head>`)
      // What the screen draws first, asked for by the page's first script when a session is stored (index.html).
      .replace('<script data-api="">', `<script data-api="${earlyRequests(pathname).join(' ').replaceAll('&', '&amp;')}">`);
    writeCompressed(path.join(outDir, file), page);
    pages[pathname] = `prerendered/${file}`;
  }
  // Which page the server sends for which address: a drawn page's file in each language, a member's screen's one
  // file (apps/api/src/plugins/web.ts).
  writeFileSync(path.join(outDir, 'pages.json'), JSON.stringify(pages, null, 2));
  const routes = routePatterns();
  if (routes.includes(NOT_FOUND.from)) throw new Error(`${NOT_FOUND.from} is a route: draw the not-found page from another address`);
  const notFound = notFoundByLanguage.en;
  writeFileSync(path.join(outDir, 'routes.json'), JSON.stringify({ routes, drawn: Object.keys(DRAWN), notFound, notFoundByLanguage }, null, 2));
} finally {
  await vite.close();
  dom.window.close();
}
// The rendered app leaves timers behind (TanStack Query's cache collection, 5 minutes): the work is done.
process.exit(0);

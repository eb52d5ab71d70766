// The landing page's JavaScript budget (issue 14): every script `/` loads before idle, gzipped, at most
// 175 KiB (150 until issue 35). Reads the built app (apps/web/dist): the scripts index.html loads or preloads, plus the landing
// route's lazy module and everything Vite preloads with it (the build manifest's static imports, followed to
// the end). Prints each chunk with its gzip size; exits non-zero above the budget.
//
//   node scripts/check-bundle-size.mjs            # after `npm run build`
//   node scripts/check-bundle-size.mjs --build    # builds first
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'apps/web/dist');
// 150 KiB until issue 35: i18next and react-i18next (19.4 KiB gzipped) and the public screens' English texts are on
// every page since (docs/performance.md, "The landing page's JavaScript").
const BUDGET_KIB = 175;

/** The route modules each page renders before idle (the router's lazy `screen(...)` for that path). */
const pages = { '/': ['src/app/routes/landing.tsx'] };

if (process.argv.includes('--build')) {
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const manifestFile = path.join(dist, '.vite/manifest.json');
if (!existsSync(manifestFile)) {
  console.error(`No build manifest at ${path.relative(root, manifestFile)}: run \`npm run build\` first.`);
  process.exit(1);
}
/** @type {Record<string, { file: string; imports?: string[]; isEntry?: boolean }>} */
const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
const html = readFileSync(path.join(dist, 'index.html'), 'utf8');

/** Scripts the HTML itself loads: <script src> (module or classic) and <link rel="modulepreload">. */
const htmlScripts = [
  ...[...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]),
  ...[...html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g)].map((m) => m[1]),
]
  .filter((src) => src !== undefined)
  .map((src) => src.replace(/^\//, ''));

/**
 * A manifest entry's own file and, recursively, the chunks it imports statically (Vite preloads those).
 * @param {string} key
 * @param {Set<string>} into
 */
function withStaticImports(key, into) {
  const entry = manifest[key];
  if (!entry) throw new Error(`${key} is not in the build manifest: is the route table in check-bundle-size.mjs current?`);
  if (into.has(entry.file)) return;
  into.add(entry.file);
  for (const imported of entry.imports ?? []) withStaticImports(imported, into);
}

/** @param {number} bytes */
const kib = (bytes) => (bytes / 1024).toFixed(2).padStart(8);
let failed = false;
for (const [page, routeModules] of Object.entries(pages)) {
  const files = new Set(htmlScripts);
  for (const key of Object.keys(manifest)) if (manifest[key]?.isEntry) withStaticImports(key, files);
  for (const routeModule of routeModules) withStaticImports(routeModule, files);

  const rows = [...files].map((file) => {
    const bytes = readFileSync(path.join(dist, file));
    return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  });
  rows.sort((a, b) => b.gzip - a.gzip);
  const total = rows.reduce((sum, row) => sum + row.gzip, 0);
  const over = total > BUDGET_KIB * 1024;
  failed ||= over;

  console.log(`JavaScript loaded by ${page} (gzip level 9, KiB):`);
  console.log(`${'gzip'.padStart(8)} ${'raw'.padStart(8)}  file`);
  for (const row of rows) console.log(`${kib(row.gzip)} ${kib(row.raw)}  ${row.file}`);
  console.log(`${kib(total)}           total for ${page}: ${over ? 'OVER' : 'within'} the budget of ${BUDGET_KIB} KiB`);
}
process.exit(failed ? 1 : 0);

/**
 * `npm run lighthouse`: Lighthouse 12 (mobile preset, simulated throttling, its defaults) in Debian's Chromium
 * on the landing page, sign-in and a member's dashboard (issue 17, docs/performance.md).
 *
 *   npm run lighthouse                          # builds the web app, starts the product on a free port (fresh
 *                                               # embedded database), registers a member and verifies the code
 *                                               # from the server's log
 *   npm run lighthouse -- http://host:3000      # a server already running (or LIGHTHOUSE_URL); the dashboard then
 *                                               # needs LIGHTHOUSE_EMAIL and LIGHTHOUSE_PASSWORD of a verified member
 *   npm run lighthouse -- --runs=5 --no-build
 *   npm run lighthouse -- --save=lighthouse-reports   # also writes each run's full report (JSON) there
 *   npm run lighthouse -- --only=dashboard             # some of the pages: landing, sign-in, dashboard
 *   npm run lighthouse -- --lang=es                    # as a Spanish browser asks (Accept-Language, the lang cookie)
 *
 * Each page is measured `--runs` times (3) in one Chromium; the table shows the median of each column. The
 * member's token is put in localStorage before the dashboard is loaded (storage is not reset for it). Prints
 * the failing audits of the median run too. Exits non-zero when a page misses a target.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Flags, type Result } from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { freePort, median, option, productSetup, spawnProduct, stopServers, waitFor } from './bench-http';

const root = path.resolve(import.meta.dirname, '..');
const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const TARGETS = { performance: 0.95, lcpMs: 1800, tbtMs: 100, cls: 0.05, accessibility: 0.95, bestPractices: 0.95 };
const PAGES = [
  { name: 'landing', path: '/', signedIn: false },
  { name: 'sign-in', path: '/login', signedIn: false },
  { name: 'dashboard', path: '/dashboard', signedIn: true },
] as const;

type Session = { token: string; user: unknown };
type Figures = { performance: number; lcpMs: number; tbtMs: number; cls: number; accessibility: number; bestPractices: number };

const runs = option('runs', 3);
let lighthouseVersion = '';
const benchmarkIndexes: number[] = [];
const urlArgument = process.argv.slice(2).find((a) => !a.startsWith('--'));
const saveDir = process.argv.find((a) => a.startsWith('--save='))?.slice('--save='.length);
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',');
/** The language to ask for (issue 35): the server sends the page drawn in it, and the app speaks it. */
const language = process.argv.find((a) => a.startsWith('--lang='))?.slice('--lang='.length);

/** Starts the product as `npm start` does, on a free port with a fresh DATA_DIR; its log goes to a file. */
async function startProduct() {
  if (!process.argv.includes('--no-build') || !existsSync(path.join(root, 'apps/web/dist/index.html')) || !existsSync(path.join(root, 'apps/api/dist/server.js'))) {
    const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('the web build failed');
  }
  const port = await freePort();
  const { dataDir, logFile, logFd, env } = productSetup('tf-lighthouse-', port);
  delete env.SMTP_URL; // mail printed to the log, where the verification code is read
  const child = spawnProduct(env, logFd, true);
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitFor(`${baseUrl}/api/health`, child);
  return {
    baseUrl,
    logFile,
    stop: () => stopServers(child, [], logFd, dataDir),
  };
}

async function post<T>(url: string, body: unknown): Promise<T> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** A new member, verified with the code the server printed to its log. */
async function registerMember(baseUrl: string, logFile: string): Promise<Session> {
  const email = `lighthouse.${Date.now().toString(36)}@example.com`;
  await post(`${baseUrl}/api/users/register`, { firstName: 'Light', lastName: 'House', email, phone: '+12015550134', password: 'Quiet-Lantern-47!' });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const line = readFileSync(logFile, 'utf8')
      .split('\n')
      .reverse()
      .find((l) => l.includes(`mail to ${email}`));
    const code = line ? (JSON.parse(line) as { msg: string }).msg.match(/^(\d{6})$/m)?.[1] : undefined;
    if (code) return post<Session>(`${baseUrl}/api/users/verify-otp`, { email, otp: code, rememberMe: true });
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no verification code for ${email} in the server log`);
}

function figuresOf(lhr: Result): Figures {
  const score = (id: string) => lhr.categories[id]?.score ?? 0;
  const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  return {
    performance: score('performance'),
    lcpMs: audit('largest-contentful-paint'),
    tbtMs: audit('total-blocking-time'),
    cls: audit('cumulative-layout-shift'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
  };
}

/** Audits that count towards a category's score and did not pass, with what they name. */
function failing(lhr: Result) {
  const lines: string[] = [];
  for (const [categoryId, category] of Object.entries(lhr.categories)) {
    for (const ref of category.auditRefs) {
      const audit = lhr.audits[ref.id];
      if (!audit || audit.score === null || audit.score >= 0.9) continue;
      if (ref.weight === 0 && categoryId !== 'performance') continue;
      if (categoryId === 'performance' && ref.group !== 'metrics' && !audit.details) continue;
      const items = (audit.details as { items?: Record<string, unknown>[] } | undefined)?.items ?? [];
      const named = items
        .slice(0, 4)
        .map((item) => {
          const node = item.node as { snippet?: string } | undefined;
          return String(item.url ?? node?.snippet ?? item.source ?? '').slice(0, 100);
        })
        .filter(Boolean);
      lines.push(`  [${categoryId}] ${audit.id} (score ${audit.score}${audit.displayValue ? `, ${audit.displayValue}` : ''})${named.length ? `: ${named.join(' | ')}` : ''}`);
    }
  }
  return lines;
}

async function main() {
  const external = urlArgument ?? process.env.LIGHTHOUSE_URL;
  const product = external ? undefined : await startProduct();
  const baseUrl = (external ?? product!.baseUrl).replace(/\/$/, '');
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS });
  let ok = true;
  try {
    let session: Session | undefined;
    if (product) session = await registerMember(baseUrl, product.logFile);
    else if (process.env.LIGHTHOUSE_EMAIL && process.env.LIGHTHOUSE_PASSWORD) {
      session = await post<Session>(`${baseUrl}/api/users/login`, {
        email: process.env.LIGHTHOUSE_EMAIL,
        password: process.env.LIGHTHOUSE_PASSWORD,
        rememberMe: true,
      });
    }

    const rows: { page: string; figures: Figures; failing: string[] }[] = [];
    for (const page of PAGES.filter((p) => !only || only.includes(p.name))) {
      if (page.signedIn && !session) {
        console.log(`${page.name}: skipped (a running server needs LIGHTHOUSE_EMAIL and LIGHTHOUSE_PASSWORD of a verified member)`);
        continue;
      }
      if (page.signedIn) {
        // The app reads the session from localStorage ("token", "user"): put it there on the origin first.
        const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
        const tab = await browser.newPage();
        await tab.goto(`${baseUrl}/favicon.svg`);
        await tab.evaluate((s: Session) => {
          localStorage.setItem('token', s.token);
          localStorage.setItem('user', JSON.stringify(s.user));
        }, session!);
        await tab.close();
        await browser.disconnect();
      }
      const results: Result[] = [];
      for (let run = 1; run <= runs; run += 1) {
        const flags: Flags = {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility', 'best-practices'],
          disableStorageReset: page.signedIn,
          ...(language ? { extraHeaders: { 'Accept-Language': language, Cookie: `lang=${language}` } } : {}),
        };
        // A trace can fail to record on a busy machine (NO_NAVSTART, "Please run Lighthouse again"): twice more.
        let result: Awaited<ReturnType<typeof lighthouse>>;
        for (let attempt = 1; ; attempt += 1) {
          result = await lighthouse(`${baseUrl}${page.path}`, flags);
          if (!result) throw new Error(`Lighthouse returned nothing for ${page.path}`);
          if (!result.lhr.runtimeError) break;
          if (attempt === 3) throw new Error(`${page.path}: ${result.lhr.runtimeError.message}`);
          console.log(`${page.name} run ${run}: ${result.lhr.runtimeError.code}, measuring again`);
        }
        results.push(result.lhr);
        if (saveDir) {
          mkdirSync(saveDir, { recursive: true });
          writeFileSync(path.join(saveDir, `${page.name}-${run}.json`), JSON.stringify(result.lhr));
        }
        lighthouseVersion = result.lhr.lighthouseVersion;
        benchmarkIndexes.push(result.lhr.environment.benchmarkIndex);
        const f = figuresOf(result.lhr);
        console.log(
          `${page.name} run ${run}: performance ${f.performance.toFixed(2)}, LCP ${(f.lcpMs / 1000).toFixed(2)} s, TBT ${f.tbtMs.toFixed(0)} ms, CLS ${f.cls.toFixed(3)}, accessibility ${f.accessibility.toFixed(2)}, best practices ${f.bestPractices.toFixed(2)} (final URL ${result.lhr.finalDisplayedUrl})`,
        );
      }
      const all = results.map(figuresOf);
      const figures = Object.fromEntries(
        (Object.keys(all[0]!) as (keyof Figures)[]).map((key) => [key, median(all.map((f) => f[key]))]),
      ) as Figures;
      // The failing audits of the run whose performance score is the median.
      const medianRun = [...results].sort((a, b) => (a.categories.performance?.score ?? 0) - (b.categories.performance?.score ?? 0))[results.length >> 1]!;
      rows.push({ page: `${page.name} (${page.path})`, figures, failing: failing(medianRun) });
    }

    console.log('');
    console.log(`Lighthouse ${lighthouseVersion}, mobile preset, simulated throttling; median of ${runs} runs; ${baseUrl}${language ? `; Accept-Language: ${language}` : ''}`);
    // Lighthouse's own measure of this machine's CPU speed (higher is faster): simulated throttling multiplies
    // the CPU time it observes, so a busy host inflates TBT and LCP.
    console.log(`host: load ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')}, Lighthouse benchmarkIndex median ${median(benchmarkIndexes).toFixed(0)}`);
    console.log('| page | Performance | LCP | TBT | CLS | Accessibility | Best Practices |');
    console.log('|---|---|---|---|---|---|---|');
    for (const { page, figures: f } of rows) {
      console.log(
        `| ${page} | ${f.performance.toFixed(2)} | ${(f.lcpMs / 1000).toFixed(2)} s | ${f.tbtMs.toFixed(0)} ms | ${f.cls.toFixed(3)} | ${f.accessibility.toFixed(2)} | ${f.bestPractices.toFixed(2)} |`,
      );
      const missed =
        f.performance < TARGETS.performance ||
        f.lcpMs > TARGETS.lcpMs ||
        f.tbtMs > TARGETS.tbtMs ||
        f.cls > TARGETS.cls ||
        f.accessibility < TARGETS.accessibility ||
        f.bestPractices < TARGETS.bestPractices;
      if (missed) ok = false;
    }
    console.log(
      `targets: Performance >= ${TARGETS.performance}, LCP <= ${TARGETS.lcpMs / 1000} s, TBT <= ${TARGETS.tbtMs} ms, CLS <= ${TARGETS.cls}, Accessibility and Best Practices >= ${TARGETS.accessibility}: ${ok ? 'all met' : 'NOT all met'}`,
    );
    for (const { page, failing: lines } of rows) {
      if (lines.length === 0) continue;
      console.log('');
      console.log(`audits not passed on ${page} (median run):`);
      for (const line of lines) console.log(line);
    }
  } finally {
    chrome.kill();
    await product?.stop();
  }
  process.exitCode = ok ? 0 : 1;
}

await main();

/**
 * `npm run bench:config`: `GET /api/config` through the whole product against a bare `node:http` server
 * answering the same JSON (issue 17, docs/performance.md).
 *
 * Starts the product as `npm start` runs it (`node apps/api/dist/server.js`, compiled first: embedded PGlite in a
 * temporary DATA_DIR, LOG_LEVEL=info, its log written to a file) and, in a process of its own, a bare `node:http` server
 * that sends the exact bytes and content type the product answered. Then, alternately, the same autocannon load
 * on each (after a warm-up), `--rounds` times, and prints requests per second and latency for each round, the
 * medians and their ratio. Also counts the product's log lines per request. Exits non-zero when the ratio is
 * below 0.6.
 *
 * Options: --connections=N (32), --duration=S per measurement (10), --rounds=N (3), --warmup=S (3), --no-build
 * (use the API build already in apps/api/dist).
 * Traffic goes to 127.0.0.1 only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { freePort, load, machine, median, option, productSetup, buildApi, spawnProduct, stopServers, waitFor, type Run } from './bench-http';

const root = path.resolve(import.meta.dirname, '..');
const REQUIRED_RATIO = 0.6;

async function main() {
  const connections = option('connections', 32);
  const duration = option('duration', 10);
  const rounds = option('rounds', 3);
  const warmup = option('warmup', 3);

  const appPort = await freePort();
  const { dataDir, logFile, logFd, env } = productSetup('tf-bench-config-', appPort);
  buildApi();
  const app = spawnProduct(env, logFd);
  let bare: ChildProcess | undefined;
  try {
    const appUrl = `http://127.0.0.1:${appPort}/api/config`;
    await waitFor(appUrl, app);
    const sample = await fetch(appUrl);
    const body = Buffer.from(await sample.arrayBuffer());
    const type = sample.headers.get('content-type') ?? 'application/json';

    const barePort = await freePort();
    bare = spawn(process.execPath, ['--import', 'tsx', path.relative(root, import.meta.filename), '--bare-server', String(barePort)], {
      cwd: root,
      env: { ...process.env, BENCH_BODY: body.toString('base64'), BENCH_TYPE: type },
      stdio: 'inherit',
    });
    const bareUrl = `http://127.0.0.1:${barePort}/api/config`;
    await waitFor(bareUrl, bare);
    const bareBody = Buffer.from(await (await fetch(bareUrl)).arrayBuffer());
    if (!bareBody.equals(body)) throw new Error('the bare server does not answer the same bytes');

    console.log(`GET /api/config: ${body.length} bytes of ${type}; ${connections} connections, ${duration} s per measurement, ${rounds} rounds`);
    console.log(`machine: ${machine()}`);
    await load({ url: appUrl, connections, duration: warmup }, app.pid!);
    await load({ url: bareUrl, connections, duration: warmup }, bare.pid!);

    const results = { app: [] as Run[], bare: [] as Run[] };
    const logLinesBefore = readFileSync(logFile, 'utf8').split('\n').length;
    let appRequests = 0;
    for (let round = 1; round <= rounds; round += 1) {
      // Alternate which goes first, so neither always runs on a machine warmed (or loaded) by the other.
      const order = round % 2 ? (['bare', 'app'] as const) : (['app', 'bare'] as const);
      for (const which of order) {
        const run = await load({ url: which === 'app' ? appUrl : bareUrl, connections, duration }, (which === 'app' ? app : bare).pid!);
        if (which === 'app') appRequests += run.requests;
        if (run.errors || run.non2xx) throw new Error(`${which}: ${run.errors} errors, ${run.non2xx} non-2xx answers`);
        results[which].push(run);
        console.log(
          `round ${round} ${which.padEnd(4)} ${run.rps.toFixed(0).padStart(7)} req/s  p50 ${run.p50} ms  p99 ${run.p99} ms  CPU ${run.cpuPerRequest.toFixed(0)} µs/request  (${run.requests} requests)`,
        );
      }
    }
    await new Promise((r) => setTimeout(r, 500));
    const logLines = readFileSync(logFile, 'utf8').split('\n').length - logLinesBefore;

    const appRps = median(results.app.map((r) => r.rps));
    const bareRps = median(results.bare.map((r) => r.rps));
    const ratio = appRps / bareRps;
    console.log('');
    const row = (name: string, runs: Run[]) =>
      `| ${name} | ${median(runs.map((r) => r.rps)).toFixed(0)} | ${median(runs.map((r) => r.p50))} ms | ${median(runs.map((r) => r.p99))} ms | ${median(runs.map((r) => r.cpuPerRequest)).toFixed(0)} µs |`;
    console.log(`| server | req/s (median of ${rounds}) | p50 | p99 | server CPU per request |`);
    console.log('|---|---|---|---|---|');
    console.log(row('bare node:http', results.bare));
    console.log(row('Terrafund (whole stack)', results.app));
    console.log('');
    const cpuRatio = median(results.bare.map((r) => r.cpuPerRequest)) / median(results.app.map((r) => r.cpuPerRequest));
    console.log(`ratio: ${ratio.toFixed(2)}x (required: at least ${REQUIRED_RATIO}x); CPU per request, bare / whole stack: ${cpuRatio.toFixed(2)}x`);
    console.log(`log lines per request: ${(logLines / appRequests).toFixed(2)}`);
    process.exitCode = ratio >= REQUIRED_RATIO ? 0 : 1;
  } finally {
    await stopServers(app, bare, logFd, dataDir);
  }
}

// The bare server: this same file, run with --bare-server PORT (body and type in the environment).
if (process.argv[2] === '--bare-server') {
  const body = Buffer.from(process.env.BENCH_BODY ?? '', 'base64');
  const type = process.env.BENCH_TYPE ?? 'application/json';
  http
    .createServer((request, response) => {
      if (request.method === 'GET' && request.url === '/api/config') {
        response.writeHead(200, { 'content-type': type, 'content-length': body.length });
        response.end(body);
      } else {
        response.writeHead(404).end();
      }
    })
    .listen(Number(process.argv[3]), '127.0.0.1');
} else {
  await main();
}

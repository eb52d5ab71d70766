/**
 * `npm run bench:config`: `GET /api/config` through the whole product against a minimal Fastify 5 app that does per
 * request what the product does, each part in its library's documented way (issue 31, docs/performance.md).
 *
 * Starts the product as `npm start` runs it (`node apps/api/dist/server.js`, compiled first: embedded PGlite in a
 * temporary DATA_DIR, LOG_LEVEL=info, its log written to a file) and, each in a process of its own:
 * - **minimal**: Fastify 5 with @fastify/helmet sending the product's headers, `Cache-Control: no-store` from the
 *   handler, one pino access line per request through `request.log` to a file (`pino.destination`), one observation
 *   of a prom-client `Histogram` per request, answering the same JSON. The gate: the product at 0.85× of it or more.
 * - for reference, **bare node:http** answering the same bytes and **bare Fastify** setting the same headers from one
 *   hook (no plugin, no logger, no metrics).
 * Every server is checked to answer the product's bytes (and, but for the bare one, its headers). After a warm-up of
 * each, autocannon loads one after another, the order reversed every round, `--rounds` times. Prints each
 * measurement with the server's own CPU time per request (from `/proc`), the medians and the ratios, and the
 * product's log lines per request; exits non-zero below 0.85× the minimal app.
 *
 * Options: --connections=N (32), --duration=S per measurement (10), --rounds=N (3), --warmup=S (3), --no-build
 * (use the API build already in apps/api/dist), --product-env=NAME=VALUE (a second product, started with that
 * setting, in the same rotation: an A/B of a switch), --product-dist=DIR (a second product from another build of the
 * API, e.g. a copy of apps/api/dist made at an earlier commit into apps/api/dist-before: a before/after in one run),
 * --only=A,B (measure only those two of bare, fastify, minimal, app and variant, one after the other each round, and
 * print the median of the rounds' ratios: a finer comparison on a noisy machine; the gate then applies only when they
 * are app and minimal). Traffic goes to 127.0.0.1 only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { freePort, load, machine, median, option, productSetup, buildApi, spawnProduct, stopServers, waitFor, type Run } from './bench-http';

const root = path.resolve(import.meta.dirname, '..');
const REQUIRED_RATIO = 0.85;

async function main() {
  const connections = option('connections', 32);
  const duration = option('duration', 10);
  const rounds = option('rounds', 3);
  const warmup = option('warmup', 3);
  const variantEnv = process.argv.find((a) => a.startsWith('--product-env='))?.slice('--product-env='.length);
  const variantDist = process.argv.find((a) => a.startsWith('--product-dist='))?.slice('--product-dist='.length);
  const variant = variantEnv ?? (variantDist && `the build in ${variantDist}`);

  const appPort = await freePort();
  const { dataDir, logFile, logFd, env } = productSetup('tf-bench-config-', appPort);
  buildApi();
  const app = spawnProduct(env, logFd);
  const others: ChildProcess[] = [];
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'tf-bench-minimal-'));
  let variantSetup: ReturnType<typeof productSetup> | undefined;
  try {
    const appUrl = `http://127.0.0.1:${appPort}/api/config`;
    // The first start creates the embedded database: slow on a busy machine.
    await waitFor(appUrl, app, {}, 300_000);
    const sample = await fetch(appUrl);
    const body = Buffer.from(await sample.arrayBuffer());
    const type = sample.headers.get('content-type') ?? 'application/json';
    const headers = ownHeaders(sample.headers);

    const serverEnv = { BENCH_BODY: body.toString('base64'), BENCH_TYPE: type, BENCH_HEADERS: JSON.stringify(headers), BENCH_LOG: path.join(scratch, 'minimal.log') };
    const comparison = async (mode: string, name: string, label: string): Promise<Server> => {
      const port = await freePort();
      const child = spawnSelf(mode, port, serverEnv);
      others.push(child);
      const url = `http://127.0.0.1:${port}/api/config`;
      await waitFor(url, child);
      const answer = await fetch(url);
      const sameHeaders = mode === '--bare-server' || sameSet(ownHeaders(answer.headers), headers);
      if (!Buffer.from(await answer.arrayBuffer()).equals(body) || !sameHeaders) {
        throw new Error(`${name}: not the product's bytes and headers: ${JSON.stringify(ownHeaders(answer.headers))}`);
      }
      return { name, label, url, pid: child.pid! };
    };

    const servers: Server[] = [
      await comparison('--bare-server', 'bare', 'bare node:http'),
      await comparison('--fastify-server', 'fastify', 'bare Fastify, the same headers'),
      await comparison('--minimal-server', 'minimal', 'minimal Fastify app (helmet, pino line, prom-client histogram)'),
      { name: 'app', label: 'Terrafund (whole stack)', url: appUrl, pid: app.pid! },
    ];
    if (variant) {
      const port = await freePort();
      const setup = productSetup('tf-bench-config-variant-', port);
      variantSetup = setup;
      const [name, ...value] = (variantEnv ?? '').split('=');
      const child = variantDist
        ? spawnProduct(setup.env, setup.logFd, false, path.join(variantDist, 'server.js'))
        : spawnProduct({ ...setup.env, [name!]: value.join('=') }, setup.logFd);
      others.push(child);
      const url = `http://127.0.0.1:${port}/api/config`;
      await waitFor(url, child, {}, 300_000);
      servers.push({ name: 'variant', label: `Terrafund with ${variant}`, url, pid: child.pid! });
    }

    console.log(`GET /api/config: ${body.length} bytes of ${type}; ${connections} connections, ${duration} s per measurement, ${rounds} rounds`);
    console.log(`machine: ${machine()}`);
    // With --only, two servers, so that each measurement of one is next to one of the other.
    const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',');
    if (only) servers.splice(0, servers.length, ...only.map((name) => servers.find((server) => server.name === name)!));
    for (const server of servers) await load({ url: server.url, connections, duration: warmup }, server.pid);

    const results = new Map<string, Run[]>(servers.map((server) => [server.name, []]));
    const logLinesBefore = countLines(logFile);
    let appRequests = 0;
    for (let round = 1; round <= rounds; round += 1) {
      // Alternate the order, so no server always runs on a machine warmed (or loaded) by another.
      const order = round % 2 ? servers : [...servers].reverse();
      for (const server of order) {
        const run = await load({ url: server.url, connections, duration }, server.pid);
        if (server.name === 'app') appRequests += run.requests;
        if (run.errors || run.non2xx) throw new Error(`${server.name}: ${run.errors} errors, ${run.non2xx} non-2xx answers`);
        results.get(server.name)!.push(run);
        console.log(
          `round ${round} ${server.name.padEnd(8)} ${run.rps.toFixed(0).padStart(7)} req/s  p50 ${run.p50} ms  p99 ${run.p99} ms  CPU ${run.cpuPerRequest.toFixed(0)} µs/request  (${run.requests} requests)`,
        );
      }
    }
    await new Promise((r) => setTimeout(r, 500));
    const logLines = countLines(logFile) - logLinesBefore;

    const rps = (name: string) => median(results.get(name)!.map((r) => r.rps));
    const cpu = (name: string) => median(results.get(name)!.map((r) => r.cpuPerRequest));
    if (only) {
      // Each round's two measurements were taken one after the other: the ratio within a round drifts least.
      const [first, second] = only.map((name) => results.get(name)!) as [Run[], Run[]];
      const perRound = (of: (run: Run) => number) => median(first.map((run, i) => of(second[i]!) / of(run)));
      const ratio = perRound((r) => r.rps);
      console.log(
        `\n${only[1]} / ${only[0]}: ${ratio.toFixed(2)}x the requests per second, ${perRound((r) => r.cpuPerRequest).toFixed(2)}x the CPU per request (medians of the ${rounds} rounds' ratios)`,
      );
      if (only.join() === 'minimal,app') process.exitCode = ratio >= REQUIRED_RATIO ? 0 : 1;
      return;
    }
    console.log('');
    console.log(`| server | req/s (median of ${rounds}) | against bare | against the minimal app | p50 | p99 | server CPU per request |`);
    console.log('|---|---|---|---|---|---|---|');
    for (const { name, label } of servers) {
      const runs = results.get(name)!;
      console.log(
        `| ${label} | ${rps(name).toFixed(0)} | ${(rps(name) / rps('bare')).toFixed(2)}× | ${(rps(name) / rps('minimal')).toFixed(2)}× | ${median(runs.map((r) => r.p50))} ms | ${median(runs.map((r) => r.p99))} ms | ${cpu(name).toFixed(0)} µs |`,
      );
    }
    console.log('');
    const ratio = rps('app') / rps('minimal');
    console.log(`ratio to the minimal app: ${ratio.toFixed(2)}x (required: at least ${REQUIRED_RATIO}x); to bare node:http ${(rps('app') / rps('bare')).toFixed(2)}x, to bare Fastify ${(rps('app') / rps('fastify')).toFixed(2)}x`);
    if (variant) console.log(`${variant}: ${(rps('variant') / rps('app')).toFixed(2)}x the product (apps/api/dist, as it starts by default)`);
    console.log(`log lines per request: ${(logLines / appRequests).toFixed(2)}`);
    process.exitCode = ratio >= REQUIRED_RATIO ? 0 : 1;
  } finally {
    await stopServers(app, others, logFd, dataDir);
    rmSync(scratch, { recursive: true, force: true });
    if (variantSetup) {
      closeSync(variantSetup.logFd);
      rmSync(variantSetup.dataDir, { recursive: true, force: true });
    }
  }
}

type Server = { name: string; label: string; url: string; pid: number };

/** This same file in a process of its own, as one of the comparison servers (below), listening on `port`. */
const spawnSelf = (mode: string, port: number, env: Record<string, string>) =>
  spawn(process.execPath, ['--import', 'tsx', path.relative(root, import.meta.filename), mode, String(port)], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: 'inherit',
  });

/** The lines in a file, read a megabyte at a time: a whole run's log can be larger than the longest string Node makes. */
function countLines(file: string): number {
  const fd = openSync(file, 'r');
  const chunk = Buffer.alloc(1 << 20);
  let lines = 0;
  try {
    for (let read; (read = readSync(fd, chunk, 0, chunk.length, null)) > 0; ) {
      for (let at = chunk.indexOf(10); at !== -1 && at < read; at = chunk.indexOf(10, at + 1)) lines += 1;
    }
  } finally {
    closeSync(fd);
  }
  return lines;
}

/**
 * The headers an answer carries that its server chose (the security headers and cache-control), leaving out
 * the ones Node writes itself (date, connection, keep-alive) and the body's own (type, length).
 */
function ownHeaders(headers: Headers): Record<string, string> {
  const nodes = new Set(['date', 'connection', 'keep-alive', 'content-type', 'content-length']);
  return Object.fromEntries([...headers].filter(([name]) => !nodes.has(name)));
}

const sameSet = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([name, value]) => b[name] === value);

/**
 * The minimal app: what the product does for `GET /api/config`, each part as its library documents it. Its
 * helmet options give the product's JSON set (plugins/security.ts): the API's CSP, CORP, Referrer-Policy, HSTS,
 * nosniff and DENY, and none of a page's others.
 */
async function minimalServer(port: number, json: unknown, type: string) {
  const [{ default: Fastify, LogController }, { default: fastifyHelmet }, { default: pino }, { Histogram, Registry }] = await Promise.all([
    import('fastify'),
    import('@fastify/helmet'),
    import('pino'),
    import('prom-client'),
  ]);
  const server = Fastify({
    // The product's destination settings (lib/logger.ts), so that both write their lines alike.
    logger: { level: 'info', stream: pino.destination({ dest: process.env.BENCH_LOG!, sync: true, minLength: 4096, periodicFlush: 100 }) },
    logController: new LogController({ disableRequestLogging: true }),
  });
  await server.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        scriptSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'none'"],
        frameAncestors: ["'none'"],
      },
    },
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: { maxAge: 31536000, includeSubDomains: true },
  });
  const registry = new Registry();
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  server.addHook('onResponse', (request, reply, done) => {
    request.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    duration.observe({ method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    done();
  });
  server.get('/api/config', (_request, reply) => {
    reply.header('cache-control', 'no-store').type(type).send(json);
  });
  await server.listen({ port, host: '127.0.0.1' });
}

// The comparison servers: this same file, run with a mode and a port (body, type and headers in the environment).
const mode = process.argv[2];
if (mode === '--bare-server' || mode === '--fastify-server' || mode === '--minimal-server') {
  const port = Number(process.argv[3]);
  const body = Buffer.from(process.env.BENCH_BODY ?? '', 'base64');
  const type = process.env.BENCH_TYPE ?? 'application/json';
  const own = JSON.parse(process.env.BENCH_HEADERS ?? '{}') as Record<string, string>;
  if (mode === '--minimal-server') {
    await minimalServer(port, JSON.parse(body.toString('utf8')), type);
  } else if (mode === '--fastify-server') {
    // Fastify with no plugin and no logger: one synchronous hook sets the headers, the route sends the bytes.
    const { default: Fastify } = await import('fastify');
    const server = Fastify({ logger: false });
    server.addHook('onRequest', (_request, reply, done) => {
      reply.headers(own);
      done();
    });
    const text = body.toString('utf8');
    server.get('/api/config', (_request, reply) => reply.type(type).send(text));
    await server.listen({ port, host: '127.0.0.1' });
  } else {
    http
      .createServer((request, response) => {
        if (request.method === 'GET' && request.url === '/api/config') {
          response.writeHead(200, { 'content-type': type, 'content-length': body.length });
          response.end(body);
        } else {
          response.writeHead(404).end();
        }
      })
      .listen(port, '127.0.0.1');
  }
} else {
  await main();
}

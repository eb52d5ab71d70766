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
 * (use the API build already in apps/api/dist), --ladder (two more servers measured in the same rotation, to show
 * where the difference comes from: the bare server sending the product's security and cache headers too, and a
 * minimal Fastify app sending them from one hook; both are checked to answer the product's bytes and headers).
 * Traffic goes to 127.0.0.1 only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readSync } from 'node:fs';
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
  const comparisons: ChildProcess[] = [];
  try {
    const appUrl = `http://127.0.0.1:${appPort}/api/config`;
    await waitFor(appUrl, app);
    const sample = await fetch(appUrl);
    const body = Buffer.from(await sample.arrayBuffer());
    const type = sample.headers.get('content-type') ?? 'application/json';

    // Each comparison server must answer the product's bytes; the ladder's two, its own headers too.
    const headers = JSON.stringify(ownHeaders(sample.headers));
    const serverEnv = { BENCH_BODY: body.toString('base64'), BENCH_TYPE: type, BENCH_HEADERS: headers };
    const comparison = async (mode: string, name: string, label: string): Promise<Server> => {
      const port = await freePort();
      const child = spawnSelf(mode, port, serverEnv);
      comparisons.push(child);
      const url = `http://127.0.0.1:${port}/api/config`;
      await waitFor(url, child);
      const answer = await fetch(url);
      const sameHeaders = mode === '--bare-server' || JSON.stringify(ownHeaders(answer.headers)) === headers;
      if (!Buffer.from(await answer.arrayBuffer()).equals(body) || !sameHeaders) throw new Error(`${name}: not the product's bytes and headers`);
      return { name, label, url, pid: child.pid! };
    };

    const servers: Server[] = [await comparison('--bare-server', 'bare', 'bare node:http')];
    // With --ladder, two more servers in between: where the difference between the bare server and the product comes from.
    if (process.argv.includes('--ladder')) {
      servers.push(
        await comparison('--bare-headers-server', 'bare+h', "bare node:http, the product's headers"),
        await comparison('--fastify-server', 'fastify', "minimal Fastify, the product's headers"),
      );
    }
    servers.push({ name: 'app', label: 'Terrafund (whole stack)', url: appUrl, pid: app.pid! });

    console.log(`GET /api/config: ${body.length} bytes of ${type}; ${connections} connections, ${duration} s per measurement, ${rounds} rounds`);
    console.log(`machine: ${machine()}`);
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
          `round ${round} ${server.name.padEnd(7)} ${run.rps.toFixed(0).padStart(7)} req/s  p50 ${run.p50} ms  p99 ${run.p99} ms  CPU ${run.cpuPerRequest.toFixed(0)} µs/request  (${run.requests} requests)`,
        );
      }
    }
    await new Promise((r) => setTimeout(r, 500));
    const logLines = countLines(logFile) - logLinesBefore;

    const rps = (name: string) => median(results.get(name)!.map((r) => r.rps));
    const cpu = (name: string) => median(results.get(name)!.map((r) => r.cpuPerRequest));
    const ratio = rps('app') / rps('bare');
    console.log('');
    console.log(`| server | req/s (median of ${rounds}) | against bare | p50 | p99 | server CPU per request |`);
    console.log('|---|---|---|---|---|---|');
    for (const { name, label } of servers) {
      const runs = results.get(name)!;
      console.log(
        `| ${label} | ${rps(name).toFixed(0)} | ${(rps(name) / rps('bare')).toFixed(2)}× | ${median(runs.map((r) => r.p50))} ms | ${median(runs.map((r) => r.p99))} ms | ${cpu(name).toFixed(0)} µs |`,
      );
    }
    console.log('');
    const cpuRatio = cpu('bare') / cpu('app');
    console.log(`ratio: ${ratio.toFixed(2)}x (required: at least ${REQUIRED_RATIO}x); CPU per request, bare / whole stack: ${cpuRatio.toFixed(2)}x`);
    console.log(`log lines per request: ${(logLines / appRequests).toFixed(2)}`);
    process.exitCode = ratio >= REQUIRED_RATIO ? 0 : 1;
  } finally {
    await stopServers(app, comparisons, logFd, dataDir);
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

// The comparison servers: this same file, run with a mode and a port (body, type and headers in the environment).
const mode = process.argv[2];
if (mode === '--bare-server' || mode === '--bare-headers-server' || mode === '--fastify-server') {
  const port = Number(process.argv[3]);
  const body = Buffer.from(process.env.BENCH_BODY ?? '', 'base64');
  const type = process.env.BENCH_TYPE ?? 'application/json';
  const own: Record<string, string> = mode === '--bare-server' ? {} : JSON.parse(process.env.BENCH_HEADERS ?? '{}');
  if (mode === '--fastify-server') {
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
    const headers = { ...own, 'content-type': type, 'content-length': body.length };
    // The bare server builds its two headers per answer, as it always has, so its figures compare with earlier runs.
    const plain = mode === '--bare-server';
    http
      .createServer((request, response) => {
        if (request.method === 'GET' && request.url === '/api/config') {
          response.writeHead(200, plain ? { 'content-type': type, 'content-length': body.length } : headers);
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

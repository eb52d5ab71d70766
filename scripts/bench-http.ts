/**
 * What the HTTP benchmarks (bench-config.ts, bench-transactions.ts) share: starting the product and stopping
 * it with the bare server, waiting for a server, one autocannon measurement with the server's CPU time,
 * medians. Traffic goes to 127.0.0.1 only.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

const root = path.resolve(import.meta.dirname, '..');

/**
 * What the product needs to run on `port` for a measurement: a fresh DATA_DIR (`prefix` + random), a log file
 * in it, and its environment (LOG_LEVEL=info; DATABASE_URL unset, so the embedded database, unless set back).
 */
export function productSetup(prefix: string, port: number) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const logFile = path.join(dataDir, 'server.log');
  const logFd = openSync(logFile, 'w');
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info' };
  delete env.DATABASE_URL;
  return { dataDir, logFile, logFd, env };
}

/**
 * Compiles the API (`npm run build -w @terrafund/api`, a few seconds) unless `--no-build` was given and a build is
 * there: the benchmarks measure the server `npm start` runs, apps/api/dist/server.js.
 */
export function buildApi() {
  if (process.argv.includes('--no-build') && existsSync(path.join(root, 'apps/api/dist/server.js'))) return;
  const build = spawnSync('npm', ['run', 'build', '-w', '@terrafund/api'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (build.status !== 0) throw new Error('the API build failed');
}

/**
 * The product as `npm start` (`npm run serve`) runs it, `node --enable-source-maps apps/api/dist/server.js`, its
 * log to `logFd` (and its standard error too with `allToLog`); call buildApi() first. `script` runs another build.
 */
export const spawnProduct = (env: NodeJS.ProcessEnv, logFd: number, allToLog = false, script = 'apps/api/dist/server.js') =>
  spawn(process.execPath, ['--enable-source-maps', script], {
    cwd: root,
    env,
    stdio: ['ignore', logFd, allToLog ? logFd : 'inherit'],
  });

/**
 * Stops the servers it was compared with (bare ones; those not started are undefined) and the product (waiting for
 * the product to end), then closes its log and removes its data.
 */
export async function stopServers(app: ChildProcess, others: readonly (ChildProcess | undefined)[], logFd: number, dataDir: string) {
  for (const other of others) other?.kill('SIGTERM');
  app.kill('SIGTERM');
  await new Promise((r) => app.once('exit', r));
  closeSync(logFd);
  rmSync(dataDir, { recursive: true, force: true });
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function waitFor(url: string, child: ChildProcess, init: RequestInit = {}, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(url, init)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer in time`);
}

/** CPU time (user + system) a process has used, in microseconds, from /proc (Linux; 100 ticks a second). */
function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

export type Run = { rps: number; p50: number; p99: number; requests: number; errors: number; non2xx: number; cpuPerRequest: number };

/** One autocannon measurement; `rate` fixes the total requests per second (otherwise as fast as answered). */
export async function load(
  options: { url: string; connections: number; duration: number; headers?: Record<string, string>; rate?: number },
  pid: number,
): Promise<Run> {
  const cpuBefore = cpuMicros(pid);
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.duration,
    headers: options.headers,
    pipelining: 1,
    ...(options.rate ? { overallRate: options.rate } : {}),
  });
  const cpu = cpuMicros(pid) - cpuBefore;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    cpuPerRequest: cpu / Math.max(1, result.requests.total),
  };
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export const machine = () =>
  `${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), load ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')}, Node ${process.version}`;

export const option = (name: string, fallback: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);

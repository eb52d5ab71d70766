import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import S3rver from 's3rver';

/**
 * Real processes for the multi-process tests: the compiled server (`node apps/api/dist/server.js`, built once by
 * global-setup.ts), HAProxy in front of several of them, an S3-compatible server (s3rver), a fresh PostgreSQL
 * database and a TCP proxy that can cut the database off. Every helper returns something to stop; the tests stop
 * all of it in afterAll.
 */
export const repoRoot = path.resolve(import.meta.dirname, '../../../..');
export const serverScript = path.join(repoRoot, 'apps/api/dist/server.js');

export const postgresUrl = process.env.DATABASE_URL;
/** HAProxy from Debian (`apt-get install haproxy`, as .ci/run does). */
export const haproxyInstalled = spawnSync('haproxy', ['-v'], { stdio: 'ignore' }).status === 0;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export const tempDir = (name: string) => mkdtempSync(path.join(os.tmpdir(), `tf-${name}-`));

/** Polls until `probe` resolves truthy, or fails after `timeoutMs` with `what`. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 30_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      // Waiting on cannot help once the process has exited: say so now rather than after the whole timeout.
      if (error instanceof ProcessExitedError) throw error;
      last = error;
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

/** Thrown by a probe whose process has exited: waitFor gives up at once. */
export class ProcessExitedError extends Error {}

/** A running child process with its output kept for the failure message. */
export type Proc = {
  child: ChildProcess;
  output: () => string;
  /** Sends `signal` and resolves with the exit code (null when killed by a signal) and how long it took. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

export function startProcess(command: string, args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; name: string }): Proc {
  const child = spawn(command, args, { cwd: options.cwd ?? repoRoot, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    // Keep the tail only: a long run must not grow without bound.
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    output: () => `--- ${options.name} ---\n${output}`,
    exited,
    async stop(signal = 'SIGTERM') {
      const started = Date.now();
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const result = await exited;
      return { ...result, ms: Date.now() - started };
    },
  };
}

export type Instance = Proc & { url: string; port: number; dataDir: string };

/** The environment every instance of the production form shares (APP_SECRET, the database, the bucket…). */
export type SharedEnv = Record<string, string>;

/** Starts `node apps/api/dist/server.js` on its own PORT and DATA_DIR; resolves once it listens. */
export async function startInstance(
  name: string,
  env: SharedEnv,
  options: { waitHealthy?: boolean; timeoutMs?: number; port?: number; dataDir?: string } = {},
): Promise<Instance> {
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? env.DATA_DIR ?? tempDir(`data-${name}`);
  const fullEnv: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', ...env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir };
  const proc = startProcess(process.execPath, ['--enable-source-maps', serverScript], { env: fullEnv, name });
  const url = `http://127.0.0.1:${port}`;
  const instance = { ...proc, url, port, dataDir };
  const timeoutMs = options.timeoutMs ?? 60_000;
  try {
    await waitFor(
      `${name} to ${options.waitHealthy === false ? 'listen' : 'be healthy'}`,
      async () => {
        if (proc.child.exitCode !== null) throw new ProcessExitedError(`${name} exited with ${proc.child.exitCode}`);
        const response = await fetch(`${url}/api/health`);
        return options.waitHealthy === false || response.ok;
      },
      timeoutMs,
    );
  } catch (error) {
    await proc.stop('SIGKILL');
    throw new Error(`${String(error)}\n${proc.output()}`);
  }
  return instance;
}


/** A JSON POST to a spawned instance, with the session token when there is one. */
export const json = (body: unknown, token?: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  body: JSON.stringify(body),
});
export const bearer = (token: string): RequestInit => ({ headers: { authorization: `Bearer ${token}` } });

/** Signs in on a spawned instance and answers the session token. */
export async function login(url: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${url}/api/users/login`, json({ email, password }));
  if (response.status !== 200) throw new Error(`login ${email}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

/** A fresh, empty PostgreSQL database on the DATABASE_URL server; `drop()` removes it. */
export async function createDatabase(prefix: string) {
  const postgresUrl = process.env.DATABASE_URL;
  if (!postgresUrl) throw new Error('DATABASE_URL is not set');
  const name = `tf_${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        return (await client.query<T>(text, values)).rows;
      } finally {
        await client.end();
      }
    },
    async drop() {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}
export type TestDatabase = Awaited<ReturnType<typeof createDatabase>>;

/** An S3-compatible server (s3rver) on 127.0.0.1 with one bucket, and the S3_* settings that reach it. */
export async function startS3(bucket = 'terrafund-files', port = 0) {
  const directory = tempDir('s3');
  const server = new S3rver({ port, address: '127.0.0.1', directory, silent: true, configureBuckets: [{ name: bucket, configs: [] }] });
  const address = await server.run();
  const url = `http://127.0.0.1:${address.port}`;
  return {
    port: address.port,
    directory,
    env: {
      S3_ENDPOINT: url,
      S3_REGION: 'us-east-1',
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    async close(options: { keepFiles?: boolean } = {}) {
      await server.close();
      if (!options.keepFiles) rmSync(directory, { recursive: true, force: true });
    },
  };
}

/**
 * The lines of one section of deploy/haproxy.cfg (`global`, `frontend web`…), trimmed, without comments and without
 * those naming addresses or logging (`bind`, `default_backend`, `log`): the rules the repository ships, to be put in
 * front of the tests' own addresses.
 */
export function deploySection(name: string): string[] {
  const text = readFileSync(path.join(repoRoot, 'deploy/haproxy.cfg'), 'utf8');
  const section = text.split(/\n(?=\S)/).find((part) => part.split('\n')[0]!.trim() === name);
  if (!section) throw new Error(`deploy/haproxy.cfg has no section "${name}"`);
  return section
    .split('\n')
    .slice(1)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#') && !/^(bind|default_backend|log)\b/.test(line));
}

/**
 * HAProxy, round robin over `backends`, each checked on GET /api/health like a production proxy would, so
 * an instance answering 503 gets no traffic. Its global settings and public frontend's rules are those of
 * deploy/haproxy.cfg (path normalisation, the /metrics deny, X-Forwarded-For), with the tests' addresses.
 * `-db` keeps it in the foreground, logging to stderr.
 */
export async function startHaproxy(backends: { name: string; port: number }[]) {
  const port = await freePort();
  const dir = tempDir('haproxy');
  const config = path.join(dir, 'haproxy.cfg');
  const statsSocket = path.join(dir, 'admin.sock');
  writeFileSync(
    config,
    [
      'global',
      ...deploySection('global').map((line) => `  ${line}`),
      // The runtime API, so that tests can wait for what the proxy sees instead of sleeping.
      `  stats socket ${statsSocket} level user`,
      'defaults',
      '  mode http',
      '  timeout connect 2s',
      '  timeout check 5s',
      '  timeout client 30s',
      '  timeout server 30s',
      '  option http-server-close',
      // An instance that stopped listening (a rolling restart) costs a retry on another one, not an error.
      '  option redispatch',
      '  retries 3',
      '  retry-on conn-failure empty-response',
      'frontend web',
      `  bind 127.0.0.1:${port}`,
      ...deploySection('frontend web').map((line) => `  ${line}`),
      '  default_backend app',
      'backend app',
      '  balance roundrobin',
      '  option httpchk GET /api/health',
      '  http-check expect status 200',
      ...backends.map((b) => `  server ${b.name} 127.0.0.1:${b.port} check inter 1s fall 3 rise 1`),
      '',
    ].join('\n'),
  );
  const proc = startProcess('haproxy', ['-f', config, '-db'], { name: 'haproxy' });
  const url = `http://127.0.0.1:${port}`;
  await waitFor('haproxy to pass requests', async () => (await fetch(`${url}/api/health`)).ok, 15_000);
  return {
    ...proc,
    url,
    /** What the proxy's health checks say of a backend server now: `UP`, `DOWN`, `UP 1/3` (going down)… */
    serverStatus: (server: string) => haproxyServerStatus(statsSocket, server),
    async close() {
      await proc.stop('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `show stat` on HAProxy's runtime API (a CSV: `# pxname,svname,…,status,…`), the status of one server of `app`. */
async function haproxyServerStatus(socketPath: string, server: string): Promise<string | undefined> {
  const csv = await new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.createConnection(socketPath, () => socket.end('show stat\n'));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
  const [header, ...rows] = csv.trim().split('\n');
  const columns = (header ?? '').replace(/^# /, '').split(',');
  const row = rows.map((line) => line.split(',')).find((fields) => fields[0] === 'app' && fields[1] === server);
  return row?.[columns.indexOf('status')];
}

/**
 * A TCP proxy to `target` that can be switched off (closing every connection through it) and on again, on the
 * same port: a database that goes away and comes back, as seen from the instance.
 */
export async function startTcpProxy(target: { host: string; port: number }, options: { listening?: boolean } = {}) {
  const port = await freePort();
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  const on = () =>
    new Promise<void>((resolve, reject) => {
      server = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.once('close', () => sockets.delete(s));
          s.on('error', () => {});
        }
        client.pipe(upstream).pipe(client);
        client.once('close', () => upstream.destroy());
        upstream.once('close', () => client.destroy());
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
  const off = async () => {
    const closing = server;
    server = undefined;
    for (const s of sockets) s.destroy();
    if (closing) await new Promise<void>((resolve) => closing.close(() => resolve()));
  };
  if (options.listening !== false) await on();
  return { port, on, off };
}

/** `npm run <script>` (or any command) to its end, with its output. */
export function run(command: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 120_000) {
  const proc = startProcess(command, args, { env, name: `${command} ${args.join(' ')}` });
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), timeoutMs);
  return proc.exited.then((result) => {
    clearTimeout(timer);
    return { ...result, output: proc.output() };
  });
}

import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { startFakeBtcpay } from '../fake-http-server';
import { productionInstanceEnv } from '../production-env';
import S3rver from 's3rver';
import { freePort, json, repoRoot, run, startInstance, startProcess, waitFor, type Instance, type Proc } from '../processes/harness';

/**
 * The servers a fault test breaks, each its own: a PostgreSQL cluster made with initdb in a temporary directory on a
 * free port, a redis-server, an S3-compatible bucket (s3rver) and an SMTP sink. Stopping one of them disturbs no other
 * test and never the machine's shared PostgreSQL or Redis.
 */

/** PostgreSQL's server binaries: PG_BIN_DIR, else the newest /usr/lib/postgresql/<major>/bin (Debian), else PATH. */
function findPostgresBin(): string | undefined {
  const candidates: string[] = [];
  if (process.env.PG_BIN_DIR) candidates.push(process.env.PG_BIN_DIR);
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    for (const major of readdirSync(debian).sort((a, b) => Number(b) - Number(a))) candidates.push(path.join(debian, major, 'bin'));
  }
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) candidates.push(dir);
  return candidates.find((dir) => ['initdb', 'pg_ctl', 'postgres'].every((tool) => existsSync(path.join(dir, tool))));
}
export const postgresBin = findPostgresBin();
const onPath = (tool: string) => spawnSync(tool, ['--version'], { stdio: 'ignore' }).status === 0;
/** PostgreSQL refuses to run as root: as root, its programs run as the `postgres` user. */
const asRoot = process.getuid?.() === 0;
const postgresUser = asRoot ? spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }) : undefined;

/** Why the fault tests cannot run here, or undefined when they can. */
export const faultsSkipReason = (() => {
  const missing: string[] = [];
  if (!postgresBin) missing.push('initdb/pg_ctl/postgres (apt-get install postgresql, or set PG_BIN_DIR)');
  if (!onPath('redis-server')) missing.push('redis-server (apt-get install redis-server)');
  if (asRoot && postgresUser?.status !== 0) missing.push('a `postgres` user to run PostgreSQL as (running as root)');
  return missing.length ? `missing ${missing.join(', ')}` : undefined;
})();

/** A PostgreSQL program, as the postgres user when this process is root. */
function postgresCommand(tool: string, args: string[]): [string, string[]] {
  const program = path.join(postgresBin!, tool);
  return asRoot ? ['runuser', ['-u', 'postgres', '--', program, ...args]] : [program, args];
}

async function runPostgres(tool: string, args: string[], timeoutMs = 120_000) {
  const [command, fullArgs] = postgresCommand(tool, args);
  const result = await run(command, fullArgs, { PATH: process.env.PATH, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' }, timeoutMs);
  if (result.code !== 0) throw new Error(`${tool} ${args.join(' ')} failed (${result.code ?? result.signal}):\n${result.output}`);
  return result.output;
}

export type Cluster = Awaited<ReturnType<typeof startPostgresCluster>>;

/**
 * A PostgreSQL cluster of its own: initdb into a temporary directory (owned by `postgres` when this process is root),
 * listening on 127.0.0.1 at a free port, its socket in that directory. fsync is off: these tests kill the servers
 * around PostgreSQL, never PostgreSQL's machine, and a 2-core test machine needs the time.
 */
export async function startPostgresCluster(name: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `tf-pg-${name}-`));
  if (asRoot) {
    const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    chownSync(dir, Number(postgresUser!.stdout.trim()), gid);
  }
  const data = path.join(dir, 'data');
  const log = path.join(dir, 'postgres.log');
  const port = await freePort();
  await runPostgres('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);
  const options = [`-p ${port}`, `-k ${dir}`, "-c listen_addresses='127.0.0.1'", '-c fsync=off', '-c full_page_writes=off', '-c max_connections=60'].join(' ');
  const start = () => runPostgres('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '120', '-o', options, 'start']);
  await start();

  const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const query = async <T extends pg.QueryResultRow>(database: string, text: string, values: unknown[] = []): Promise<T[]> => {
    const client = new pg.Client({ connectionString: url(database) });
    await client.connect();
    try {
      return (await client.query<T>(text, values)).rows;
    } finally {
      await client.end();
    }
  };
  return {
    port,
    dir,
    url,
    query,
    async createDatabase(database = `tf_${name}_${randomBytes(3).toString('hex')}`) {
      await query('postgres', `create database ${database}`);
      return database;
    },
    /** `pg_ctl restart -m fast`: every session is ended, the server comes back on the same port. */
    restart: () => runPostgres('pg_ctl', ['-D', data, '-l', log, '-m', 'fast', '-w', '-t', '120', 'restart']),
    stop: (mode: 'fast' | 'immediate' = 'fast') => runPostgres('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '120', 'stop']),
    start,
    async destroy() {
      await runPostgres('pg_ctl', ['-D', data, '-m', 'immediate', '-w', '-t', '60', 'stop']).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Whether a redis-server answers PING on `port`. */
function redisPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

/** A redis-server of its own on a free port, without persistence; `stop()` and `start()` keep the port. */
export async function startRedis() {
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tf-redis-'));
  let proc: Proc | undefined;
  const start = async () => {
    proc = startProcess('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { name: 'redis' });
    await waitFor('redis-server to answer', () => redisPing(port), 20_000);
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    start,
    async stop() {
      await proc?.stop('SIGTERM');
      proc = undefined;
    },
    async destroy() {
      await proc?.stop('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * An S3-compatible bucket (s3rver) that can be stopped and started again on the same port and the same files: a
 * bucket that goes away and comes back with what it held.
 */
export async function startBucket(bucket = 'terrafund-files') {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'tf-bucket-'));
  const port = await freePort();
  let server: S3rver | undefined;
  const start = async () => {
    server = new S3rver({ port, address: '127.0.0.1', directory, silent: true, configureBuckets: [{ name: bucket, configs: [] }] });
    await server.run();
  };
  await start();
  return {
    port,
    directory,
    env: {
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_REGION: 'us-east-1',
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    start,
    async stop() {
      const closing = server;
      server = undefined;
      await closing?.close();
    },
    async destroy() {
      await server?.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

export type SunkMail = { to: string[]; subject: string; body: string };

/** Undoes quoted-printable soft breaks and escapes so codes and links can be read with a regex. */
const decodeQuotedPrintable = (raw: string) =>
  raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/**
 * An SMTP server that keeps what it receives in this process, and can be stopped and started again on the same
 * port: a mail server that goes down and comes back, as the product's outbox sees it.
 */
export async function startSmtpSink() {
  const received: SunkMail[] = [];
  const port = await freePort();
  let server: SMTPServer | undefined;
  const start = async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      closeTimeout: 100,
      onData(stream, session, callback) {
        let raw = '';
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => (raw += chunk));
        stream.on('end', () => {
          received.push({
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            subject: /^Subject: (.*)$/im.exec(raw)?.[1] ?? '',
            body: decodeQuotedPrintable(raw),
          });
          callback();
        });
      },
    });
    // smtp-server emits a connection's socket error (ECONNRESET) on the server when it comes in the middle of a mail,
    // which is what a sender killed with kill -9 leaves; unheard, it is an uncaught exception of the test process.
    // That mail was never received (the killed server's outbox sends it again, as the tests check), so it is dropped.
    server.on('error', () => {});
    const listening = server;
    await new Promise<void>((resolve, reject) => {
      listening.server.once('error', reject);
      listening.server.listen(port, '127.0.0.1', () => resolve());
    });
  };
  await start();
  const mailTo = (email: string) => received.filter((m) => m.to.includes(email.toLowerCase()));
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    mailTo,
    start,
    async stop() {
      const closing = server;
      server = undefined;
      if (closing) await new Promise<void>((resolve) => closing.close(() => resolve()));
    },
    /** The newest mail to `email` whose subject matches, waited for. */
    async waitForMail(email: string, subject: RegExp, timeoutMs = 30_000) {
      return waitFor(`a mail "${subject}" to ${email}`, async () => mailTo(email).filter((m) => subject.test(m.subject)).at(-1), timeoutMs);
    },
  };
}
export type SmtpSink = Awaited<ReturnType<typeof startSmtpSink>>;

/**
 * Everything one fault test runs the product on, in production form (NODE_ENV=production): a database in a cluster
 * of its own, Redis, a bucket, BTCPay's fake, the SMTP sink, an admin. `env` is what each server instance gets.
 */
export async function startFaultBackends(name: string) {
  const cluster = await startPostgresCluster(name);
  const database = await cluster.createDatabase(`tf_${name}`);
  const [redis, s3, btcpay, sink] = await Promise.all([startRedis(), startBucket(), startFakeBtcpay(), startSmtpSink()]);
  const { env, admin, metricsToken } = productionInstanceEnv({
    databaseUrl: cluster.url(database),
    redisUrl: redis.url,
    smtpUrl: sink.url,
    btcpayUrl: btcpay.url,
    s3Env: s3.env,
  });
  return {
    name,
    env,
    cluster,
    database,
    redis,
    s3,
    btcpay,
    sink,
    admin,
    metricsToken,
    sql: <T extends pg.QueryResultRow>(text: string, values: unknown[] = []) => cluster.query<T>(database, text, values),
    start: (instanceName: string, extra: Record<string, string> = {}) => startInstance(instanceName, { ...env, ...extra }, { timeoutMs: 180_000 }),
    async close() {
      await Promise.allSettled([s3.destroy(), btcpay.close(), sink.stop(), redis.destroy()]);
      await cluster.destroy();
    },
  };
}
export type FaultBackends = Awaited<ReturnType<typeof startFaultBackends>>;



/** A member signed up through the API, the code read from the sink; KYC approved directly in the database. */
export async function signUp(backends: FaultBackends, url: string, options: { kycApproved?: boolean } = {}) {
  const email = `member-${randomBytes(4).toString('hex')}@terrafund.test`;
  const password = 'Tf-correct-horse-9';
  const registered = await fetch(`${url}/api/users/register`, json({ firstName: 'Ada', lastName: 'Fault', email, password }));
  if (registered.status !== 201) throw new Error(`register: ${registered.status} ${await registered.text()}`);
  const mail = await backends.sink.waitForMail(email, /verification code/i);
  const otp = /(?:^|\s)(\d{6})(?:\s|$)/m.exec(mail.body)?.[1];
  if (!otp) throw new Error(`no code in the mail to ${email}`);
  const verified = await fetch(`${url}/api/users/verify-otp`, json({ email, otp }));
  if (verified.status !== 200) throw new Error(`verify: ${verified.status} ${await verified.text()}`);
  const { token, user } = (await verified.json()) as { token: string; user: { _id: string } };
  if (options.kycApproved) {
    await backends.sql(`update users set kyc_status = 'approved', kyc_verified = true where id = $1`, [user._id]);
  }
  return { email, password, token, id: user._id };
}

/** `npm run ledger:check` against the database: its exit code and output. */
export async function ledgerCheck(databaseUrl: string) {
  return run('npm', ['run', '--silent', 'ledger:check'], { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' }, 300_000);
}

/** Stops an instance and removes its data directory. */
export async function discard(instance: Instance | undefined, signal: NodeJS.Signals = 'SIGKILL') {
  if (!instance) return;
  await instance.stop(signal);
  rmSync(instance.dataDir, { recursive: true, force: true });
}

export { repoRoot };
// The fault tests' requests to their instances, as the multi-process tests make them.
export { bearer, json, login } from '../processes/harness';

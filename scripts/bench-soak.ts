/**
 * `npm run bench:soak`: the product under mixed member and admin traffic for a set time, minute by minute
 * (docs/performance.md, "Soak"). It builds and starts the product as `npm start` does (embedded database, a fresh
 * DATA_DIR, real SMTP into the browser tests' sink), signs up members and an admin, then sends, at a fixed rate so that
 * latency measures the server and not a queue of our own making:
 *   members: dashboard, transactions, projects, a project, notifications, profile, and a profile edit;
 *   admins: users, transactions, figures, held payments.
 * Each minute is one autocannon window per side; the server's resident memory is read from /proc/<pid>/status every
 * second. It fails (exit 1) when the resident memory at the end is more than 15 % above what it was after the first
 * minute, when the last minute's p99 is more than twice the first minute's, or on any 5xx or error.
 *
 * Options: --minutes=N (default 10), --rate=N requests per second in all (default 40), --connections=N per side
 * (default 4), --no-build (reuse apps/api/dist).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import autocannon, { type Request } from 'autocannon';
import { buildApi, freePort, machine, option, productSetup, spawnProduct, stopServers, waitFor } from './bench-http';

const RSS_GROWTH_BOUND = 1.15;
const P99_BOUND = 2;

type Mail = { to: string[]; subject: string; body: string };
type Window = { minute: number; p50: number; p99: number; requests: number; errors: number; status5xx: number; non2xx: number };

const minutes = option('minutes', 10);
const rate = option('rate', 40);
const connections = option('connections', 4);

/** Resident memory of a process, in bytes (VmRSS of /proc/<pid>/status). */
function rssBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) * 1024;
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

async function post(url: string, body: unknown, token?: string) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<Record<string, unknown>>;
}

/** A member signed up through the API, the code read from the sink. */
async function member(base: string, mailbox: string, n: number): Promise<string> {
  const email = `soak.${n}.${Date.now().toString(36)}@terrafund.test`;
  await post(`${base}/api/users/register`, { firstName: 'Soak', lastName: `Member ${n}`, email, password: 'Tf-correct-horse-9' });
  for (let i = 0; i < 200; i += 1) {
    const mails = (await (await fetch(`${mailbox}/?to=${encodeURIComponent(email)}`)).json()) as Mail[];
    const code = /(?:^|\s)(\d{6})(?:\s|$)/m.exec(mails.at(-1)?.body ?? '')?.[1];
    if (code) return (await post(`${base}/api/users/verify-otp`, { email, otp: code })).token as string;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no code mailed to ${email}`);
}

/** One minute of one side's traffic at its share of the rate. */
async function window(url: string, requests: Request[], share: number, seconds: number) {
  const result = await autocannon({ url, connections, duration: seconds, requests, overallRate: Math.max(1, Math.round(share)), pipelining: 1 });
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors + result.timeouts,
    status5xx: result['5xx'],
    non2xx: result.non2xx,
  };
}

async function main() {
  buildApi();
  const port = await freePort();
  const { dataDir, logFd, env } = productSetup('tf-soak-', port);
  const { startMailSink } = (await import(path.resolve(import.meta.dirname, 'mail-sink.mjs'))) as {
    startMailSink: () => Promise<{ smtpUrl: string; mailboxUrl: string; close(): Promise<void> }>;
  };
  const sink = await startMailSink();
  const admin = { email: 'soak.admin@terrafund.test', password: 'Quiet-Lantern-47!' };
  const app = spawnProduct({ ...env, LOG_LEVEL: 'warn', SMTP_URL: sink.smtpUrl, ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password }, logFd);
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${base}/api/health`, app);
    const memberTokens: string[] = [];
    for (let n = 0; n < 4; n += 1) memberTokens.push(await member(base, sink.mailboxUrl, n));
    const adminToken = (await post(`${base}/api/users/login`, admin)).token as string;
    const projects = (await (await fetch(`${base}/api/projects`, { headers: { authorization: `Bearer ${memberTokens[0]}` } })).json()) as { _id: string }[];

    const memberRequests: Request[] = memberTokens.flatMap((token, n) => {
      const headers = { authorization: `Bearer ${token}` };
      return [
        { method: 'GET', path: '/api/users/dashboard', headers },
        { method: 'GET', path: '/api/transactions?limit=50', headers },
        { method: 'GET', path: '/api/projects', headers },
        { method: 'GET', path: `/api/projects/${projects[n % projects.length]!._id}`, headers },
        { method: 'GET', path: '/api/notifications', headers },
        { method: 'GET', path: '/api/users/profile', headers },
        { method: 'PATCH', path: '/api/users/profile', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ firstName: `Soak${n}` }) },
      ] satisfies Request[];
    });
    const adminHeaders = { authorization: `Bearer ${adminToken}` };
    const adminRequests: Request[] = [
      { method: 'GET', path: '/api/admin/users?page=1', headers: adminHeaders },
      { method: 'GET', path: '/api/admin/transactions?page=1', headers: adminHeaders },
      { method: 'GET', path: '/api/admin/dashboard/stats', headers: adminHeaders },
      { method: 'GET', path: '/api/admin/payments/review', headers: adminHeaders },
      { method: 'GET', path: '/api/admin/mail/undeliverable', headers: adminHeaders },
    ];

    console.log(`soak: ${minutes} min at ${rate} req/s (members ${Math.round(rate * 0.8)}, admins ${Math.round(rate * 0.2)}), ${connections} connections a side; ${machine()}`);
    const rss: { at: number; bytes: number }[] = [];
    const sampler = setInterval(() => rss.push({ at: Date.now(), bytes: rssBytes(app.pid!) }), 1000);
    const windows: Window[] = [];
    const rssAfter: number[] = [];
    for (let minute = 1; minute <= minutes; minute += 1) {
      const [m, a] = await Promise.all([window(base, memberRequests, rate * 0.8, 60), window(base, adminRequests, rate * 0.2, 60)]);
      const w: Window = {
        minute,
        // The slower side's figures: the bound is on whoever is served worst.
        p50: Math.max(m.p50, a.p50),
        p99: Math.max(m.p99, a.p99),
        requests: m.requests + a.requests,
        errors: m.errors + a.errors,
        status5xx: m.status5xx + a.status5xx,
        non2xx: m.non2xx + a.non2xx,
      };
      windows.push(w);
      rssAfter.push(rssBytes(app.pid!));
      console.log(
        `minute ${String(minute).padStart(2)}: ${w.requests} requests, p50 ${w.p50} ms, p99 ${w.p99} ms, 5xx ${w.status5xx}, errors ${w.errors}, non-2xx ${w.non2xx}, RSS ${mib(rssAfter.at(-1)!)}`,
      );
    }
    clearInterval(sampler);

    const first = windows[0]!;
    const last = windows.at(-1)!;
    const baseline = rssAfter[0]!;
    const end = rssAfter.at(-1)!;
    const peak = Math.max(...rss.map((s) => s.bytes));
    const growth = end / baseline;
    const p99Ratio = last.p99 / Math.max(1, first.p99);
    const fives = windows.reduce((n, w) => n + w.status5xx + w.errors, 0);
    console.log(
      `\nRSS after minute 1 ${mib(baseline)}, at the end ${mib(end)} (×${growth.toFixed(3)}, bound ×${RSS_GROWTH_BOUND}), peak ${mib(peak)}; ` +
        `p99 first minute ${first.p99} ms, last ${last.p99} ms (×${p99Ratio.toFixed(2)}, bound ×${P99_BOUND}); 5xx and errors ${fives}; ` +
        `${windows.reduce((n, w) => n + w.requests, 0)} requests in all`,
    );
    const failures = [
      ...(minutes > 1 && growth > RSS_GROWTH_BOUND ? [`resident memory grew ×${growth.toFixed(3)} after the first minute`] : []),
      ...(minutes > 1 && p99Ratio > P99_BOUND ? [`p99 went from ${first.p99} ms to ${last.p99} ms`] : []),
      ...(fives > 0 ? [`${fives} answers were 5xx or errors`] : []),
    ];
    for (const failure of failures) console.error(`FAILED: ${failure}`);
    if (failures.length > 0) process.exitCode = 1;
    else console.log('soak passed');
  } finally {
    await sink.close();
    await stopServers(app, [], logFd, dataDir);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

import { existsSync, readdirSync, rmSync } from 'node:fs';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { png } from '../files';
import { haproxyInstalled, postgresUrl, run, startHaproxy, startInstance, waitFor, type Instance } from './harness';
import { bearer, json, login, signUp, startProductionBackends, type ProductionBackends } from './production-env';

/** Every file under `dir` (none when it does not exist). */
const filesUnder = (dir: string) =>
  existsSync(dir) ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name) : [];

/**
 * The scale-out shape: two instances of the compiled server in production form, sharing one PostgreSQL database,
 * Redis, one S3-compatible bucket and APP_SECRET, behind HAProxy's round robin. Whichever instance a request
 * lands on, the member sees one product, and money moves once.
 */
describe.skipIf(!postgresUrl || !haproxyInstalled)('two instances behind HAProxy (PostgreSQL, Redis, S3)', () => {
  let backends: ProductionBackends;
  let a: Instance;
  let b: Instance;
  let proxy: Awaited<ReturnType<typeof startHaproxy>>;
  let adminToken: string;

  beforeAll(async () => {
    backends = await startProductionBackends('scaleout');
    // Both at once: migrations, the admin bootstrap and the sample seed must cope with a sibling starting too.
    [a, b] = await Promise.all([startInstance('A', backends.env, { timeoutMs: 180_000 }), startInstance('B', backends.env, { timeoutMs: 180_000 })]);
    proxy = await startHaproxy([
      { name: 'a', port: a.port },
      { name: 'b', port: b.port },
    ]);
    adminToken = await login(proxy.url, backends.admin.email, backends.admin.password);
  });
  afterAll(async () => {
    await Promise.allSettled([proxy?.close(), a?.stop(), b?.stop()]);
    for (const instance of [a, b]) if (instance) rmSync(instance.dataDir, { recursive: true, force: true });
    await backends?.close();
  });

  // A failing check shows what the instances and the proxy logged.
  afterEach((context) => {
    if (context.task.result?.state === 'fail') for (const p of [a, b, proxy]) if (p) console.log(p.output().slice(-6000));
  });

  const both = () => [a.url, b.url] as const;
  const sql = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => backends.database.query<T>(text, values);

  it('is healthy on each instance and through the proxy, and the proxy reaches both', async () => {
    for (const url of [...both(), proxy.url]) {
      const response = await fetch(`${url}/api/health`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ok' });
    }
    for (let i = 0; i < 6; i += 1) expect((await fetch(`${proxy.url}/api/plans`)).status).toBe(200);
    for (const url of both()) {
      const metrics = await (await fetch(`${url}/metrics`, bearer(backends.metricsToken))).text();
      expect(metrics).toMatch(/^http_request_duration_seconds_count\{method="GET",route="\/api\/plans",status="200"\} [1-9]/m);
    }
  });

  it('shares sessions: signed in through A, the token works on B; signing out through B ends it on A', async () => {
    const member = await signUp(backends, a.url, b.url);
    for (const url of both()) expect((await fetch(`${url}/api/users/profile`, bearer(member.token))).status).toBe(200);

    const token = await login(a.url, member.email, member.password);
    expect((await fetch(`${b.url}/api/users/profile`, bearer(token))).status).toBe(200);
    const out = await fetch(`${b.url}/api/users/logout`, { method: 'POST', ...bearer(token) });
    expect(out.status).toBe(200);
    for (const url of both()) expect((await fetch(`${url}/api/users/profile`, bearer(token))).status).toBe(401);
    // The other session of the same member is untouched.
    expect((await fetch(`${a.url}/api/users/profile`, bearer(member.token))).status).toBe(200);
  });

  it('keeps files in the bucket and nowhere under DATA_DIR: sample pictures, KYC documents; a signed link from A opens through B', async () => {
    const s3 = new S3Client({
      endpoint: backends.env.S3_ENDPOINT,
      region: backends.env.S3_REGION,
      forcePathStyle: true,
      credentials: { accessKeyId: backends.env.S3_ACCESS_KEY_ID!, secretAccessKey: backends.env.S3_SECRET_ACCESS_KEY! },
    });
    const listKeys = async (prefix: string) =>
      ((await s3.send(new ListObjectsV2Command({ Bucket: backends.env.S3_BUCKET, Prefix: prefix }))).Contents ?? []).map((o) => o.Key!);

    // The sample projects were seeded once (two instances started together), their files in the bucket.
    const [seeded] = await sql<{ count: number }>('select count(*)::int as count from projects');
    expect(seeded!.count).toBe(6);
    const assets = await sql<{ id: string; variants: Record<string, string> }>('select id, variants from project_assets');
    const assetKeys = assets.flatMap((row) => Object.values(row.variants));
    expect(assetKeys.length).toBeGreaterThan(6);
    const stored = new Set(await listKeys('project-'));
    for (const key of assetKeys) expect(stored.has(key), key).toBe(true);
    const picture = assets[0]!;
    const fromA = await fetch(`${a.url}/api/projects/assets/${picture.id}`);
    const fromB = await fetch(`${b.url}/api/projects/assets/${picture.id}`);
    expect([fromA.status, fromB.status]).toEqual([200, 200]);
    expect(Buffer.from(await fromB.arrayBuffer()).equals(Buffer.from(await fromA.arrayBuffer()))).toBe(true);

    // A KYC document uploaded through A…
    const member = await signUp(backends, a.url, a.url);
    const form = new FormData();
    form.append('documentType', 'idFront');
    form.append('file', new Blob([png({ width: 64, height: 48, seed: 7 })], { type: 'image/png' }), 'id-front.png');
    const upload = await fetch(`${a.url}/api/kyc/upload-document`, { method: 'POST', body: form, ...bearer(member.token) });
    expect(upload.status, await upload.clone().text()).toBe(201);
    const { fileUrl } = (await upload.json()) as { fileUrl: string };
    const [document] = await sql<{ storage_key: string }>(
      'select d.storage_key from kyc_documents d join users u on u.id = d.user_id where u.email = $1',
      [member.email],
    );
    expect(await listKeys('kyc/')).toContain(document!.storage_key);

    // …gets a signed link from A that opens through B (and through the proxy), without a session.
    const link = (await (await fetch(`${a.url}${fileUrl}/link`, bearer(member.token))).json()) as { url: string };
    const throughB = await fetch(`${b.url}${link.url}`);
    expect(throughB.status).toBe(200);
    expect(throughB.headers.get('content-type')).toMatch(/^image\//);
    const throughProxy = await fetch(`${proxy.url}${link.url}`);
    expect(Buffer.from(await throughProxy.arrayBuffer()).equals(Buffer.from(await throughB.arrayBuffer()))).toBe(true);

    // Nothing of it was written on either instance's disk.
    for (const instance of [a, b]) expect(filesUnder(instance.dataDir), instance.dataDir).toEqual([]);
  });

  it('activates a pack once when the same notification reaches A and B at the same moment', async () => {
    const member = await signUp(backends, proxy.url, proxy.url);
    const deposit = await fetch(`${a.url}/api/transactions`, json({ type: 'deposit', plan: 'gold' }, member.token));
    expect(deposit.status, await deposit.clone().text()).toBe(201);
    const { transaction, payment_url } = (await deposit.json()) as { transaction: { _id: string }; payment_url: string };
    const invoiceId = payment_url.split('/').pop()!;
    backends.btcpay.set(invoiceId, { status: 'Settled' });

    const delivery = backends.btcpay.delivery(invoiceId, 'InvoiceSettled');
    const redelivery = backends.btcpay.delivery(invoiceId, 'InvoiceSettled');
    const send = (url: string, d: typeof delivery) =>
      fetch(`${url}/api/payments/webhooks/btcpay`, { method: 'POST', headers: d.headers, body: new Uint8Array(d.body) });
    const answers = await Promise.all([
      ...[a.url, b.url, a.url, b.url].map((url) => send(url, delivery)),
      ...[b.url, a.url].map((url) => send(url, redelivery)),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);

    const [settled] = await sql<{ entries: number; memberships: number; status: string }>(
      `select (select count(*)::int from journal_entries where kind = 'deposit' and metadata->>'transactionId' = $1::text) as entries,
              (select count(*)::int from memberships where deposit_transaction_id = $1::uuid) as memberships,
              (select status from transactions where id = $1::uuid) as status`,
      [transaction._id],
    );
    expect(settled).toEqual({ entries: 1, memberships: 1, status: 'completed' });
    for (const url of both()) {
      const dashboard = await fetch(`${url}/api/users/dashboard`, bearer(member.token));
      expect(dashboard.status).toBe(200);
    }
  });

  it('pays each business day once when the payout job runs on both instances and the CLI at the same moment', async () => {
    const member = await signUp(backends, proxy.url, proxy.url);
    const deposit = (await (await fetch(`${b.url}/api/transactions`, json({ type: 'deposit', plan: 'platinum' }, member.token))).json()) as {
      payment_url: string;
    };
    const invoiceId = deposit.payment_url.split('/').pop()!;
    backends.btcpay.set(invoiceId, { status: 'Settled' });
    const d = backends.btcpay.delivery(invoiceId, 'InvoiceSettled');
    expect((await fetch(`${proxy.url}/api/payments/webhooks/btcpay`, { method: 'POST', headers: d.headers, body: new Uint8Array(d.body) })).status).toBe(200);

    // The pack started two weeks ago (set in the database, as the clock cannot be moved in other processes):
    // about ten business days are due, and every instance's scheduler and the admins' buttons want to pay them.
    await sql(
      `update memberships set started_at = now() - interval '14 days', ends_at = now() + interval '3 years'
       where user_id = (select id from users where email = $1)`,
      [member.email],
    );
    const runs = await Promise.all([
      fetch(`${a.url}/api/admin/payouts/run`, { method: 'POST', ...bearer(adminToken) }),
      fetch(`${b.url}/api/admin/payouts/run`, { method: 'POST', ...bearer(adminToken) }),
      fetch(`${a.url}/api/admin/payouts/run`, { method: 'POST', ...bearer(adminToken) }),
      fetch(`${b.url}/api/admin/payouts/run`, { method: 'POST', ...bearer(adminToken) }),
      run('npm', ['run', 'payouts'], { ...process.env, ...backends.env, NODE_ENV: 'production' }),
    ]);
    const [cli, ...http] = [runs[4] as Awaited<ReturnType<typeof run>>, ...(runs.slice(0, 4) as Response[])];
    expect(http.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(cli.code, cli.output).toBe(0);

    const [paid] = await sql<{ days: number; distinct_days: number; cents: string; wallet: string }>(
      `select count(*)::int as days, count(distinct p.business_day)::int as distinct_days, sum(p.amount_cents)::text as cents,
              (select balance_cents::text from ledger_accounts a where a.user_id = m.user_id and a.kind = 'member_wallet') as wallet
       from dividend_payouts p join memberships m on m.id = p.membership_id
       where m.user_id = (select id from users where email = $1) group by m.user_id`,
      [member.email],
    );
    expect(paid!.days).toBeGreaterThanOrEqual(8);
    expect(paid!.distinct_days).toBe(paid!.days);
    expect(Number(paid!.cents)).toBe(paid!.days * 2200);
    expect(paid!.wallet).toBe(paid!.cents);
  });

  it('`npm run ledger:check` passes afterwards', async () => {
    const check = await run('npm', ['run', 'ledger:check'], { ...process.env, ...backends.env });
    expect(check.code, check.output).toBe(0);
    expect(check.output).toContain('ledger ok');
  });

  it('serves Prometheus metrics behind METRICS_TOKEN, with route patterns and the domain figures', async () => {
    // A notification with a bad signature counts as a webhook failure.
    const bad = await fetch(`${a.url}/api/payments/webhooks/btcpay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'btcpay-sig': 'sha256=00' },
      body: '{"type":"InvoiceSettled","invoiceId":"nope"}',
    });
    expect(bad.status).toBe(403);

    expect((await fetch(`${a.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${a.url}/metrics`, bearer('not-the-token'))).status).toBe(401);
    const response = await fetch(`${a.url}/metrics`, bearer(backends.metricsToken));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    // The money figures are read from the database at most every few seconds: wait for this run's to show.
    const text = await waitFor('the settled payments in the metrics', async () => {
      const scraped = await (await fetch(`${a.url}/metrics`, bearer(backends.metricsToken))).text();
      return /^terrafund_payments_settled_total\{provider="btcpay"\} 2$/m.test(scraped) && scraped;
    }, 20_000, 500);
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(text).toMatch(/^http_request_duration_seconds_bucket\{le="[0-9.]+",method="GET",route="\/api\/users\/profile",status="200"\}/m);
    // Patterns, never raw URLs with ids in them.
    expect(text).toContain('route="/api/projects/assets/:id"');
    expect(text).not.toMatch(/route="[^"]*[0-9a-f]{8}-[0-9a-f]{4}-/);
    expect(text).toMatch(/^process_cpu_seconds_total [0-9.e+-]+$/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds [0-9.e+-]+$/m);
    expect(text).toMatch(/^terrafund_payments_settled_total\{provider="btcpay"\} 2$/m);
    expect(text).toMatch(/^terrafund_payouts_paid_cents_total [1-9][0-9]*$/m);
    expect(text).toMatch(/^terrafund_withdrawals_pending 0$/m);
    expect(text).toMatch(/^terrafund_webhook_failures_total\{provider="btcpay",status="403"\} 1$/m);
  });

  it('drops no request through the proxy while A is restarted (SIGTERM, then started again)', async () => {
    let stop = false;
    const statuses: (number | string)[] = [];
    const client = async () => {
      while (!stop) {
        try {
          statuses.push((await fetch(`${proxy.url}/api/plans`)).status);
        } catch (error) {
          statuses.push(String(error));
        }
      }
    };
    const clients = Array.from({ length: 4 }, client);
    await waitFor('the clients to be answered through both instances', async () => statuses.length >= 20, 30_000, 20);
    const stopped = await a.stop('SIGTERM');
    expect(stopped.code, a.output()).toBe(0);
    expect(stopped.ms).toBeLessThan(10_000);
    // While A is away the proxy marks it down and B takes everything; A comes back on the same port.
    await waitFor('the proxy to mark A down', async () => (await proxy.serverStatus('a'))?.startsWith('DOWN'), 30_000, 100);
    const duringOutage = statuses.length;
    await waitFor('requests to be served by B alone', async () => statuses.length >= duringOutage + 20, 30_000, 20);
    a = await startInstance('A (restarted)', backends.env, { port: a.port, dataDir: a.dataDir, timeoutMs: 120_000 });
    // Until the proxy's health check has seen A back.
    await waitFor('the proxy to mark A up again', async () => (await proxy.serverStatus('a')) === 'UP', 30_000, 100);
    stop = true;
    await Promise.all(clients);
    expect(statuses.length).toBeGreaterThan(20);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    const metrics = await (await fetch(`${a.url}/metrics`, bearer(backends.metricsToken))).text();
    expect(metrics).toMatch(/^http_request_duration_seconds_count\{method="GET",route="\/api\/plans",status="200"\} [1-9]/m);
  });

  it('counts sign-in failures through A and B together (Redis): the pair limit refuses the next attempt on either', async () => {
    const member = await signUp(backends, a.url, b.url);
    const attempt = (url: string, password: string) =>
      fetch(`${url}/api/users/login`, json({ email: member.email, password }));
    // Ten wrong passwords from this address, half through each instance: the account-and-address limit is 10.
    for (let i = 0; i < 10; i += 1) expect((await attempt(i % 2 === 0 ? a.url : b.url, 'Not-The-Password-42')).status).toBe(400);
    const refusedOnA = await attempt(a.url, 'Not-The-Password-42');
    expect(refusedOnA.status).toBe(429);
    expect(refusedOnA.headers.get('retry-after')).toMatch(/^\d+$/);
    // Even the right password waits now, on the other instance too: the count is shared, not per process.
    expect((await attempt(b.url, member.password)).status).toBe(429);
  });
});

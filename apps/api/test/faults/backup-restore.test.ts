import { existsSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { png, pdf } from '../files';
import { filesUnder } from '../../src/cli/backup-files';
import { kycBody } from '../kyc-fixtures';
import { run, startInstance, tempDir, type Instance } from '../processes/harness';
import { bearer, discard, faultsSkipReason, json, ledgerCheck, login, repoRoot, signUp, startFaultBackends, type FaultBackends } from './backends';
import { fundedMember } from './load';
import { btcAddress, withdrawalBody } from '../withdrawals';

const npm = (args: string[], env: Record<string, string>) =>
  run('npm', ['run', '--silent', ...args], { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', ...env }, 300_000);

/** SQL on the embedded database of a stopped instance (pglite-sql.ts), its rows. */
async function pgliteSql<T>(dataDir: string, query: string): Promise<T[]> {
  const result = await run('npx', ['tsx', path.join(repoRoot, 'apps/api/test/faults/pglite-sql.ts'), dataDir, query], { PATH: process.env.PATH, HOME: process.env.HOME }, 120_000);
  if (result.code !== 0) throw new Error(result.output);
  const line = result.output.split('\n').filter((l) => l.startsWith('[')).at(-1);
  return JSON.parse(line ?? '[]') as T[];
}

/** A multipart upload as the browser sends it. */
function form(fields: Record<string, string>, file: { name: string; data: Buffer; type: string }) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  body.append('file', new Blob([new Uint8Array(file.data)], { type: file.type }), file.name);
  return body;
}

/** What the restored instance must show the same: the member's money and history, from the API. */
async function memberView(url: string, email: string, password: string) {
  const token = await login(url, email, password);
  const dashboard = (await (await fetch(`${url}/api/users/dashboard`, bearer(token))).json()) as { walletBalance: number; membership: string | null };
  const transactions = (await (await fetch(`${url}/api/transactions?limit=100`, bearer(token))).json()) as { _id: string; type: string; status: string; amount: number }[];
  return { token, walletBalance: dashboard.walletBalance, membership: dashboard.membership, transactions: transactions.map((t) => `${t._id} ${t.type} ${t.status} ${t.amount}`).sort() };
}

/**
 * Backups that restore: `npm run backup -- --out FILE` while the server runs on a database with members, packs,
 * dividends and withdrawals; `npm run restore -- FILE` into a fresh data directory (embedded) or a new database
 * (PostgreSQL); a server started on the copy signs the member in and shows the same money; `npm run ledger:check`
 * passes on it; a restore into a target that is not empty is refused.
 */
describe.skipIf(faultsSkipReason)('backups that restore', () => {
  let backends: FaultBackends;
  const instances: Instance[] = [];
  const dirs: string[] = [];
  beforeAll(async () => {
    backends = await startFaultBackends('backup');
  });
  afterAll(async () => {
    for (const instance of instances) await discard(instance);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    await backends?.close();
  });
  afterEach((context) => {
    if (context.task.result?.state === 'fail') for (const instance of instances) console.log(instance.output().slice(-5000));
  });

  it('on the embedded database: backs up a running instance, restores it into a fresh DATA_DIR, and the copy serves', async () => {
    // Production form on the embedded database: no DATABASE_URL, files on the local disk, limits in memory.
    const { DATABASE_URL: _db, REDIS_URL: _redis, S3_ENDPOINT: _e, S3_REGION: _r, S3_BUCKET: _b, S3_ACCESS_KEY_ID: _k, S3_SECRET_ACCESS_KEY: _s, S3_FORCE_PATH_STYLE: _f, ...env } = backends.env;
    const dataDir = tempDir('backup-a');
    const restoredDir = tempDir('backup-b');
    const file = path.join(tempDir('backup-file'), 'embedded.tar');
    dirs.push(dataDir, restoredDir, path.dirname(file));
    let a = await startInstance('embedded-a', env, { dataDir, timeoutMs: 180_000 });
    instances.push(a);
    const adminToken = await login(a.url, backends.admin.email, backends.admin.password);
    const member = await signUp(backends, a.url);
    // KYC through the API: a passport, its proof of address, the admin's approval; the files are on the local disk.
    const documents: string[] = [];
    for (const [documentType, data, type] of [['idFront', png({ width: 32, height: 24, seed: 7 }), 'image/png'], ['proofOfAddress', pdf(), 'application/pdf']] as const) {
      const response = await fetch(`${a.url}/api/kyc/upload-document`, { method: 'POST', ...bearer(member.token), body: form({ documentType }, { name: 'doc', data, type }) });
      expect(response.status).toBe(201);
      documents.push(((await response.json()) as { fileUrl: string }).fileUrl);
    }
    expect((await fetch(`${a.url}/api/kyc/submit`, json(kycBody(documents), member.token))).status).toBeLessThan(300);
    expect((await fetch(`${a.url}/api/admin/verify/${member.id}`, json({ verified: true }, adminToken))).status).toBe(200);
    // A pack, paid at the provider.
    const deposit = (await (await fetch(`${a.url}/api/transactions`, json({ type: 'deposit', plan: 'platinum' }, member.token))).json()) as { payment_url: string };
    const invoiceId = deposit.payment_url.split('/').pop()!;
    backends.btcpay.set(invoiceId, { status: 'Settled' });
    const delivery = backends.btcpay.delivery(invoiceId, 'InvoiceSettled');
    expect((await fetch(`${a.url}/api/payments/webhooks/btcpay`, { method: 'POST', headers: delivery.headers, body: new Uint8Array(delivery.body) })).status).toBe(200);
    // Dividends: the membership dated back (the server stopped, PGlite has one process), paid by the job at start.
    await a.stop('SIGTERM');
    await pgliteSql(dataDir, `update memberships set started_at = started_at - interval '8 days', ends_at = ends_at - interval '8 days' where user_id = '${member.id}'`);
    a = await startInstance('embedded-a2', env, { dataDir, timeoutMs: 180_000 });
    instances.push(a);
    const token = await login(a.url, member.email, member.password);
    for (let i = 0; i < 2; i += 1) expect((await fetch(`${a.url}/api/transactions`, json(withdrawalBody(25, { walletAddress: btcAddress(`backup${i}`), password: member.password }), token))).status).toBe(201);
    const before = await memberView(a.url, member.email, member.password);
    expect(before.transactions.filter((t) => t.includes(' payout '))).not.toHaveLength(0);

    // Backed up while it runs: the server makes the copy.
    const backup = await npm(['backup', '--', '--out', file], { ...env, DATA_DIR: dataDir });
    expect(backup.code, backup.output).toBe(0);
    expect(backup.output).toContain('from the running server');
    expect(statSync(file).size).toBeGreaterThan(0);
    expect((await fetch(`${a.url}/api/health`)).status).toBe(200);

    const restore = await npm(['restore', '--', file], { ...env, DATA_DIR: restoredDir });
    expect(restore.code, restore.output).toBe(0);
    // Every uploaded file: the two KYC documents and the seeded projects' pictures.
    const uploaded = filesUnder(path.join(dataDir, 'uploads')).length;
    expect(uploaded).toBeGreaterThan(2);
    expect(restore.output).toContain(`${uploaded} uploaded files`);
    expect(filesUnder(path.join(restoredDir, 'uploads')).length).toBe(uploaded);
    // Into a data directory that is not empty: refused, nothing touched.
    const again = await npm(['restore', '--', file], { ...env, DATA_DIR: restoredDir });
    expect(again.code).toBe(1);
    expect(again.output).toMatch(/already holds a database/);

    const b = await startInstance('embedded-b', env, { dataDir: restoredDir, timeoutMs: 180_000 });
    instances.push(b);
    const after = await memberView(b.url, member.email, member.password);
    expect({ ...after, token: undefined }).toEqual({ ...before, token: undefined });
    // The uploaded documents came along: the admin opens them on the copy.
    const restoredAdmin = await login(b.url, backends.admin.email, backends.admin.password);
    const [, , , , type, id] = documents[0]!.split('/');
    const link = (await (await fetch(`${b.url}/api/kyc/documents/${type}/${id}/link`, bearer(restoredAdmin))).json()) as { url: string };
    expect((await fetch(`${b.url}${link.url}`)).status).toBe(200);
    await b.stop('SIGTERM');
    const check = await npm(['ledger:check'], { ...env, DATA_DIR: restoredDir });
    expect(check.code, check.output).toBe(0);
    await a.stop('SIGTERM');
    expect(existsSync(path.join(dataDir, 'run', 'backup.sock'))).toBe(false);
  });

  it('on PostgreSQL: pg_dump while the server runs, pg_restore into a new database, and the copy serves', async () => {
    const a = await backends.start('postgres-a');
    instances.push(a);
    const adminToken = await login(a.url, backends.admin.email, backends.admin.password);
    const member = await fundedMember(backends, a.url, adminToken);
    for (let i = 0; i < 2; i += 1) expect((await fetch(`${a.url}/api/transactions`, json(withdrawalBody(25, { walletAddress: btcAddress(`pgbackup${i}`), password: member.password }), member.token))).status).toBe(201);
    const before = await memberView(a.url, member.email, member.password);
    const file = path.join(tempDir('backup-pg'), 'postgres.dump');
    dirs.push(path.dirname(file));

    const backup = await npm(['backup', '--', '--out', file], { ...backends.env, DATA_DIR: a.dataDir });
    expect(backup.code, backup.output).toBe(0);
    expect(backup.output).toContain('pg_dump custom format');

    const copy = await backends.cluster.createDatabase('tf_backup_copy');
    const copyUrl = backends.cluster.url(copy);
    const restore = await npm(['restore', '--', file], { ...backends.env, DATABASE_URL: copyUrl });
    expect(restore.code, restore.output).toBe(0);
    const again = await npm(['restore', '--', file], { ...backends.env, DATABASE_URL: copyUrl });
    expect(again.code).toBe(1);
    expect(again.output).toMatch(/not empty/);

    const b = await backends.start('postgres-b', { DATABASE_URL: copyUrl });
    instances.push(b);
    const after = await memberView(b.url, member.email, member.password);
    expect({ ...after, token: undefined }).toEqual({ ...before, token: undefined });
    const check = await ledgerCheck(copyUrl);
    expect(check.code, check.output).toBe(0);
  });
});

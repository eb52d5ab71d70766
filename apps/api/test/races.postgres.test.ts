import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { messages } from '@terrafund/contracts';
import { connectPostgres, type DatabaseHandle } from '../src/db/client';
import { mailOutbox, memberships, transactions, users } from '../src/db/schema';
import { createSecrets } from '../src/lib/crypto';
import { hashPassword } from '../src/lib/password';
import { checkLedger, memberAccount, memberBalance, platformAccount, postEntry } from '../src/modules/ledger/ledger.service';
import { freePort, startServer, type Process } from './server-process';

/**
 * The races the PGlite tests run in one process (one withdrawal of 20 at once, one decision of 50, replayed
 * webhooks), run again against PostgreSQL by three real server processes sharing one fresh database: what
 * holds them is the database (row locks, CHECKs, unique keys), not anything one process keeps in memory.
 * Runs only with DATABASE_URL (the PostgreSQL project).
 */
const testDb = inject('testDb');
const SERVERS = 3;
const APP_SECRET = `races-${randomBytes(24).toString('base64url')}`;
const PASSWORD = 'Quiet-Lantern-47!';

describe.skipIf(testDb.kind !== 'postgres')('races across three server processes on PostgreSQL', () => {
  let databaseName: string;
  let database: DatabaseHandle;
  let adminUrl: string;
  const servers: Array<{ process: Process; url: string; dataDir: string }> = [];

  beforeAll(async () => {
    if (testDb.kind !== 'postgres') return;
    adminUrl = testDb.adminUrl;
    databaseName = `tf_t_${process.pid}_races_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${databaseName} template ${testDb.template}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${databaseName}`;
    database = connectPostgres(url.toString(), 5);

    const ports = await Promise.all(Array.from({ length: SERVERS }, () => freePort()));
    for (const port of ports) {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tf-race-'));
      const process_ = startServer({
        DATABASE_URL: url.toString(),
        APP_SECRET,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        PUBLIC_URL: `http://127.0.0.1:${ports[0]}`,
        LOG_LEVEL: 'silent',
      });
      servers.push({ process: process_, url: `http://127.0.0.1:${port}`, dataDir });
    }
    await Promise.all(servers.map((server) => waitForHealth(server)));
  }, 180_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.process.stop()));
    for (const server of servers) rmSync(server.dataDir, { recursive: true, force: true });
    await database?.close();
    if (databaseName) {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${databaseName} with (force)`);
      await admin.end();
    }
  }, 60_000);

  async function waitForHealth(server: { process: Process; url: string }) {
    const deadline = Date.now() + 150_000;
    while (Date.now() < deadline) {
      try {
        if ((await fetch(`${server.url}/api/health`)).status === 200) return;
      } catch {
        // not listening yet
      }
      const exited = await Promise.race([server.process.exited.then(() => true), new Promise<boolean>((r) => setTimeout(r, 250, false))]);
      if (exited) throw new Error(`server exited: ${server.process.output()}`);
    }
    throw new Error(`server did not start: ${server.process.output()}`);
  }

  /** The i-th request goes to server i mod 3. */
  const serverFor = (i: number) => servers[i % SERVERS]!.url;
  const api = (i: number, method: string, url: string, token?: string, body?: unknown) =>
    fetch(`${serverFor(i)}/api${url}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
    });

  async function createUser(role: 'user' | 'admin', options: { approved?: boolean; walletCents?: number } = {}) {
    const now = new Date();
    const [user] = await database.db
      .insert(users)
      .values({
        email: `race.${role}.${randomBytes(5).toString('hex')}@example.com`,
        firstName: 'Race',
        lastName: role === 'admin' ? 'Admin' : 'Member',
        passwordHash: await hashPassword(PASSWORD),
        emailVerifiedAt: now,
        createdAt: now,
        updatedAt: now,
        role,
        ...(options.approved ? { kycStatus: 'approved' as const, kycVerified: true } : {}),
      })
      .returning();
    if (options.walletCents) {
      await database.db.transaction(async (tx) => {
        await postEntry(tx, { clock: { now: () => new Date() } }, {
          kind: 'payout',
          idempotencyKey: `race-fund:${user!.id}`,
          description: 'race funding',
          lines: [
            { accountId: await memberAccount(tx, user!.id, 'member_wallet'), amountCents: options.walletCents! },
            { accountId: await platformAccount(tx, 'platform_dividends_paid'), amountCents: -options.walletCents! },
          ],
        });
      });
    }
    // Signed in on another server than the ones that will use the session: sessions live in the database.
    const login = await api(2, 'POST', '/users/login', undefined, { email: user!.email, password: PASSWORD, rememberMe: true });
    expect(login.status, await login.clone().text()).toBe(200);
    return { user: user!, token: ((await login.json()) as { token: string }).token };
  }

  let pendingWithdrawal: { id: string; userId: string };

  it('lets exactly one of 20 simultaneous withdrawals of the whole balance through, from three servers', async () => {
    const { user, token } = await createUser('user', { approved: true, walletCents: 10_000 });
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => api(i, 'POST', '/transactions', token, { type: 'withdrawal', amount: 100, walletAddress: 'bc1qraceaddress' })),
    );
    const created = responses.filter((r) => r.status === 201);
    expect(responses.map((r) => r.status).sort()).toEqual([201, ...Array<number>(19).fill(400)]);
    for (const refused of responses.filter((r) => r.status === 400)) {
      expect(((await refused.json()) as { message: string }).message).toBe(messages.wallet.insufficientBalance);
    }
    expect(await memberBalance(database.db, user.id, 'member_wallet')).toBe(0);
    const rows = await database.db.select().from(transactions).where(and(eq(transactions.userId, user.id), eq(transactions.type, 'withdrawal')));
    expect(rows).toHaveLength(1);
    // One mail for the one withdrawal that holds money.
    const mails = await database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.recipient, user.email), eq(mailOutbox.template, 'withdrawalRequested')));
    expect(mails).toHaveLength(1);
    pendingWithdrawal = { id: ((await created[0]!.json()) as { transaction: { _id: string } }).transaction._id, userId: user.id };
    expect(await checkLedger(database.db)).toEqual([]);
  }, 60_000);

  it('takes exactly one of 50 simultaneous decisions by two admins on three servers', async () => {
    const admins = [await createUser('admin'), await createUser('admin')];
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        api(i, 'PATCH', `/transactions/${pendingWithdrawal.id}/status`, admins[i % 2]!.token, { status: i % 2 === 0 ? 'completed' : 'failed' }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    const winner = (await responses.find((r) => r.status === 200)!.json()) as { status: string };
    const [row] = await database.db.select().from(transactions).where(eq(transactions.id, pendingWithdrawal.id));
    expect(row!.status).toBe(winner.status);
    expect(await memberBalance(database.db, pendingWithdrawal.userId, 'member_wallet')).toBe(winner.status === 'failed' ? 10_000 : 0);
    const [audits] = (
      (await database.db.execute(sql`select count(*)::int as n from audit_log where target_id = ${pendingWithdrawal.userId} and action like 'withdrawal.%'`)) as unknown as { rows: Array<{ n: number }> }
    ).rows;
    expect(audits!.n).toBe(1);
    expect(await checkLedger(database.db)).toEqual([]);
  }, 60_000);

  it('settles a sandbox payment once, however many Pay presses and replayed notifications arrive at three servers', async () => {
    const { user, token } = await createUser('user');
    const deposit = await api(0, 'POST', '/transactions', token, { type: 'deposit', plan: 'gold' });
    expect(deposit.status).toBe(201);
    const { transaction, payment_url } = (await deposit.json()) as { transaction: { _id: string }; payment_url: string };
    const checkout = new URL(payment_url);
    const invoiceId = checkout.pathname.split('/').pop()!;
    const page = await (await fetch(payment_url)).text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!;

    // Ten presses of Pay, spread over the servers, each from that server's own page.
    const presses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        fetch(`${serverFor(i)}${checkout.pathname}/pay${checkout.search}`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: serverFor(i) },
          body: new URLSearchParams({ csrf }).toString(),
          redirect: 'manual',
        }),
      ),
    );
    expect(presses.map((r) => r.status).sort()).toEqual([303, ...Array<number>(9).fill(409)]);

    // The provider's notification delivered again and again, and fresh deliveries of the same news.
    const key = createSecrets(APP_SECRET).sandboxWebhookKey;
    const notification = (deliveryId: string) => {
      const body = JSON.stringify({ deliveryId, originalDeliveryId: deliveryId, type: 'InvoiceSettled', invoiceId, metadata: { orderId: transaction._id } });
      return { body, signature: `sha256=${createHmac('sha256', key).update(body).digest('hex')}` };
    };
    const replay = notification('race-replayed');
    const deliveries = await Promise.all(
      Array.from({ length: 30 }, (_, i) => {
        const sent = i % 3 === 0 ? notification(`race-fresh-${i}`) : replay;
        return fetch(`${serverFor(i)}/api/payments/webhooks/sandbox`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'sandbox-sig': sent.signature },
          body: sent.body,
        });
      }),
    );
    expect(deliveries.map((r) => r.status)).toEqual(Array<number>(30).fill(200));

    const [row] = await database.db.select().from(transactions).where(eq(transactions.id, transaction._id));
    expect(row!.status).toBe('completed');
    expect(await database.db.select().from(memberships).where(eq(memberships.userId, user.id))).toHaveLength(1);
    expect(await memberBalance(database.db, user.id, 'member_pack')).toBe(250_000);
    const [entries] = (
      (await database.db.execute(sql`select count(*)::int as n from journal_entries where idempotency_key = ${`deposit:${transaction._id}`}`)) as unknown as {
        rows: Array<{ n: number }>;
      }
    ).rows;
    expect(entries!.n).toBe(1);
    expect(await checkLedger(database.db)).toEqual([]);
  }, 60_000);
});

import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { messages } from '@terrafund/contracts';
import { connectPostgres, type DatabaseHandle } from '../src/db/client';
import { mailOutbox, memberships, sandboxPayouts, transactions, users, withdrawalAddresses, withdrawals } from '../src/db/schema';
import { createSecrets } from '../src/lib/crypto';
import { hashPassword } from '../src/lib/password';
import { memberAccount, memberBalance, platformAccount, postEntry } from '../src/modules/ledger/ledger.service';
import { checkLedger } from '../src/modules/reports';
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
        // Sandbox payouts stay in flight for the length of these tests: what is raced is the approval and the send.
        PAYOUT_PROVIDER: 'sandbox',
        SANDBOX_PAYOUT_SECONDS: '3600',
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

  const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
  const withdrawal = (amount: number) => ({ type: 'withdrawal', amount, walletAddress: BTC_ADDRESS, asset: 'BTC', password: PASSWORD });

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
    // The member's address is confirmed already (a new one would wait for the mailed link).
    if (role === 'user') {
      await database.db.insert(withdrawalAddresses).values({ userId: user!.id, asset: 'BTC', address: BTC_ADDRESS, confirmedAt: now });
    }
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
      Array.from({ length: 20 }, (_, i) => api(i, 'POST', '/transactions', token, withdrawal(100))),
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
    const winner = (await responses.find((r) => r.status === 200)!.json()) as { status: string; stage: string };
    const [row] = await database.db.select().from(transactions).where(eq(transactions.id, pendingWithdrawal.id));
    expect(row!.status).toBe(winner.status);
    // An approval sends it (the sandbox keeps it in flight): the money stays out; a refusal returns it.
    expect(await memberBalance(database.db, pendingWithdrawal.userId, 'member_wallet')).toBe(winner.status === 'failed' ? 10_000 : 0);
    const payouts = await database.db.select().from(sandboxPayouts).where(eq(sandboxPayouts.withdrawalId, pendingWithdrawal.id));
    expect(payouts).toHaveLength(winner.status === 'failed' ? 0 : 1);
    const [audits] = (
      (await database.db.execute(sql`select count(*)::int as n from audit_log where target_id = ${pendingWithdrawal.userId} and action like 'withdrawal.%'`)) as unknown as { rows: Array<{ n: number }> }
    ).rows;
    expect(audits!.n).toBe(1);
    expect(await checkLedger(database.db)).toEqual([]);
  }, 60_000);

  it("a member's withdrawals and an admin's refusals of their others at once, on three servers: none ends as a deadlock", async () => {
    // A request holds the member's row and waits for their ledger accounts; a refusal holds those accounts and writes
    // a notification naming the member. The member's row is locked FOR NO KEY UPDATE, which the notification's
    // foreign-key check does not wait for: with FOR UPDATE the two waited on each other and PostgreSQL ended one
    // with 40P01 (a 500; the kill-money fault test met it).
    const { user, token } = await createUser('user', { approved: true, walletCents: 100_000 });
    const admin = await createUser('admin');
    const pending: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      const created = await api(i, 'POST', '/transactions', token, withdrawal(25));
      expect(created.status, await created.clone().text()).toBe(201);
      pending.push(((await created.json()) as { transaction: { _id: string } }).transaction._id);
    }
    const responses = await Promise.all([
      ...pending.map((id, i) => api(i, 'PATCH', `/transactions/${id}/status`, admin.token, { status: 'failed' })),
      ...pending.map((_, i) => api(i + 1, 'POST', '/transactions', token, withdrawal(25))),
    ]);
    const statuses = responses.map((r) => r.status);
    expect(statuses.slice(0, 12)).toEqual(Array<number>(12).fill(200));
    expect(statuses.slice(12)).toEqual(Array<number>(12).fill(201));
    // Twelve held and twelve returned: 24 requests of 25 against 1,000, half of them refused.
    expect(await memberBalance(database.db, user.id, 'member_wallet')).toBe(100_000 - 12 * 2_500);
    expect(await checkLedger(database.db)).toEqual([]);
  }, 120_000);

  it('two admins approving a large withdrawal at once on three servers: one 202, one send, one payout', async () => {
    const admins = [await createUser('admin'), await createUser('admin')];
    const { user, token } = await createUser('user', { approved: true, walletCents: 1_000_000 });
    const created = await api(0, 'POST', '/transactions', token, withdrawal(6_000));
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { transaction: { _id: string } }).transaction._id;
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) => api(i, 'POST', `/admin/transactions/withdrawal/${id}`, admins[i % 2]!.token, { status: 'completed' })),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([200, 202, ...Array<number>(10).fill(409)]);
    const approvals = (
      (await database.db.execute(sql`select count(*)::int as n from withdrawal_approvals where transaction_id = ${id}`)) as unknown as { rows: Array<{ n: number }> }
    ).rows;
    expect(approvals[0]!.n).toBe(2);
    expect(await database.db.select().from(sandboxPayouts).where(eq(sandboxPayouts.withdrawalId, id))).toHaveLength(1);
    const [details] = await database.db.select().from(withdrawals).where(eq(withdrawals.transactionId, id));
    expect(details!.stage).toBe('sent');
    expect(await memberBalance(database.db, user.id, 'member_wallet')).toBe(1_000_000 - 600_000);
    expect(await checkLedger(database.db)).toEqual([]);
  }, 60_000);

  it('a cancel racing approvals on three servers: cancelled with no payout, or sent and not cancelled', async () => {
    const admin = await createUser('admin');
    for (let round = 0; round < 3; round += 1) {
      const { user, token } = await createUser('user', { approved: true, walletCents: 10_000 });
      const created = await api(0, 'POST', '/transactions', token, withdrawal(50));
      const id = ((await created.json()) as { transaction: { _id: string } }).transaction._id;
      const responses = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          i % 2 === 0
            ? api(i, 'POST', `/transactions/${id}/cancel`, token)
            : api(i, 'PATCH', `/transactions/${id}/status`, admin.token, { status: 'completed' }),
        ),
      );
      const cancels = responses.filter((_, i) => i % 2 === 0).map((r) => r.status);
      const [details] = await database.db.select().from(withdrawals).where(eq(withdrawals.transactionId, id));
      const payouts = await database.db.select().from(sandboxPayouts).where(eq(sandboxPayouts.withdrawalId, id));
      if (details!.stage === 'cancelled') {
        expect(payouts).toHaveLength(0);
        expect(cancels.filter((s) => s === 200)).toHaveLength(1);
        expect(await memberBalance(database.db, user.id, 'member_wallet')).toBe(10_000);
      } else {
        expect(details!.stage).toBe('sent');
        expect(payouts).toHaveLength(1);
        expect(cancels.every((s) => s === 409)).toBe(true);
        expect(await memberBalance(database.db, user.id, 'member_wallet')).toBe(5_000);
      }
    }
    expect(await checkLedger(database.db)).toEqual([]);
  }, 90_000);

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

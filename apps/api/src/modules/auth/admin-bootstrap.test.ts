import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { and, eq, isNull, sql } from 'drizzle-orm';
import pg from 'pg';
import pino from 'pino';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { connectPglite, connectPostgres, type DatabaseHandle } from '../../db/client';
import { auditLog, mailOutbox, sessions, users } from '../../db/schema';
import { hashPassword, verifyPassword } from '../../lib/password';
import { bearer, createUser, DEFAULT_PASSWORD, loginAs, rows, uniqueEmail, useTestApp } from '../../../test/test-app';
import { AdminBootstrapRefused, ensureAdmin, promoteToAdmin, type AdminDeps } from './admin-bootstrap';

const ADMIN_PASSWORD = 'Operator-chosen-Lantern-58';
const root = path.resolve(import.meta.dirname, '../../../../..');

describe('admin bootstrap (ADMIN_EMAIL / ADMIN_PASSWORD at start)', () => {
  const ctx = useTestApp();
  let deps: AdminDeps;
  beforeAll(async () => {
    deps = { ...ctx.app.deps, logger: pino({ level: 'silent' }) };
  });

  const adminCall = (token: string) => ctx.app.inject({ method: 'GET', url: '/api/admin/users', headers: bearer(token) });
  const login = (email: string, password: string) =>
    ctx.app.inject({ method: 'POST', url: '/api/users/login', payload: { email, password } });

  it('creates the admin when no account has the address', async () => {
    const email = uniqueEmail('boss');
    expect(await ensureAdmin(deps, { email: email.toUpperCase(), password: ADMIN_PASSWORD })).toBe('created');
    const [row] = await ctx.database.db.select().from(users).where(eq(users.email, email));
    expect(row).toMatchObject({ role: 'admin', emailVerifiedAt: expect.any(Date) });
    expect((await adminCall(await loginAs(ctx, email, ADMIN_PASSWORD))).statusCode).toBe(200);
  });

  it('leaves an existing admin as it is: its own password stays, its sessions go on', async () => {
    const admin = await createUser(ctx, { role: 'admin', email: uniqueEmail('boss') });
    const token = await loginAs(ctx, admin.email);
    expect(await ensureAdmin(deps, { email: admin.email, password: ADMIN_PASSWORD })).toBe('unchanged');
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, admin.id));
    expect(row!.passwordHash).toBe(admin.passwordHash);
    expect((await adminCall(token)).statusCode).toBe(200);
    expect((await login(admin.email, ADMIN_PASSWORD)).statusCode).toBe(400);
  });

  it('refuses a member\'s address, naming ADMIN_EMAIL and the explicit promotion, and changes nothing', async () => {
    const member = await createUser(ctx);
    const token = await loginAs(ctx, member.email);
    const [before] = await rows(ctx, sql`select * from users where id = ${member.id}`);
    const refused = await ensureAdmin(deps, { email: member.email, password: ADMIN_PASSWORD }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AdminBootstrapRefused);
    const message = (refused as Error).message;
    expect(message).toContain('ADMIN_EMAIL');
    expect(message).toContain(`npm run admin -- --promote ${member.email}`);
    expect(message).toContain('ADMIN_PROMOTE=true');
    expect(message).not.toContain('\n');
    expect(await rows(ctx, sql`select * from users where id = ${member.id}`)).toEqual([before]);
    expect((await adminCall(token)).statusCode).toBe(403);
  });

  it('promotes a member only when asked: new password, every session ended, owner mailed, audited', async () => {
    const member = await createUser(ctx, { firstName: 'Morgan' });
    const tokens = [await loginAs(ctx, member.email), await loginAs(ctx, member.email, DEFAULT_PASSWORD, false)];
    expect(await ensureAdmin(deps, { email: member.email, password: ADMIN_PASSWORD }, { promote: true })).toBe('promoted');

    for (const token of tokens) expect((await adminCall(token)).statusCode).toBe(401);
    const live = await ctx.database.db.select().from(sessions).where(and(eq(sessions.userId, member.id), isNull(sessions.revokedAt)));
    expect(live).toEqual([]);
    expect((await login(member.email, DEFAULT_PASSWORD)).statusCode).toBe(400);
    const fresh = await loginAs(ctx, member.email, ADMIN_PASSWORD);
    expect((await adminCall(fresh)).statusCode).toBe(200);

    const mail = (await ctx.deliverMail()).filter((m) => m.to === member.email);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toMatch(/administrator/i);
    expect(mail[0]!.text).toContain('Morgan');
    const [audit] = await ctx.database.db.select().from(auditLog).where(eq(auditLog.targetId, member.id));
    expect(audit).toMatchObject({ action: 'admin.promoted', actorId: null, before: { role: 'user' }, after: { role: 'admin' } });

    // A later start with the promotion still set changes nothing more.
    expect(await ensureAdmin(deps, { email: member.email, password: 'Another-operator-pass-77' }, { promote: true })).toBe('unchanged');
    expect((await adminCall(fresh)).statusCode).toBe(200);
  });

  it('promoting an address nobody has is refused without creating it', async () => {
    expect(await promoteToAdmin(deps, { email: uniqueEmail('nobody'), password: ADMIN_PASSWORD })).toBe('not-found');
  });
});

/** A database of its own for a spawned process, the same kind as this test run's, with one member in it. */
async function databaseWithMember(email: string, password: string, options: { twoFactor?: boolean } = {}) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tf-admin-'));
  const testDb = inject('testDb');
  let env: Record<string, string> = { DATA_DIR: dataDir };
  let open: () => DatabaseHandle;
  let drop = async () => {};
  if (testDb.kind === 'postgres') {
    const name = `tf_t_${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: testDb.adminUrl });
    await admin.connect();
    await admin.query(`create database ${name} template ${testDb.template}`);
    await admin.end();
    const url = new URL(testDb.adminUrl);
    url.pathname = `/${name}`;
    env = { ...env, DATABASE_URL: url.toString() };
    open = () => connectPostgres(url.toString(), 2);
    drop = async () => {
      const dropper = new pg.Client({ connectionString: testDb.adminUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    };
  } else {
    const first = connectPglite(path.join(dataDir, 'pglite'), new Blob([readFileSync(testDb.dumpFile)]));
    await first.close();
    open = () => connectPglite(path.join(dataDir, 'pglite'));
  }
  const handle = open();
  const now = new Date();
  const [member] = await handle.db
    .insert(users)
    .values({
      email,
      firstName: 'Member',
      lastName: 'Owner',
      passwordHash: await hashPassword(password),
      emailVerifiedAt: now,
      createdAt: now,
      updatedAt: now,
      // The reset never opens the secret, so any sealed-looking value stands for one here.
      ...(options.twoFactor ? { twoFactorSecret: 'sealed-secret', twoFactorEnabledAt: now } : {}),
    })
    .returning();
  await handle.db.insert(sessions).values({ userId: member!.id, tokenHash: 'x'.repeat(64), expiresAt: new Date(now.getTime() + 86_400_000) });
  await handle.close();
  return {
    env,
    memberId: member!.id,
    /** Runs `query` on a connection of its own, closed afterwards. */
    async read(query: (handle: DatabaseHandle) => Promise<void>) {
      const handle = open();
      try {
        await query(handle);
      } finally {
        await handle.close();
      }
    },
    async cleanup() {
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
type MemberDatabase = Awaited<ReturnType<typeof databaseWithMember>>;

/** Runs `test` against a database of its own holding one member (a new address, DEFAULT_PASSWORD), dropped afterwards. */
async function withMemberDatabase(test: (db: MemberDatabase, email: string) => Promise<void>, options: { twoFactor?: boolean } = {}) {
  const email = uniqueEmail('member');
  const db = await databaseWithMember(email, DEFAULT_PASSWORD, options);
  try {
    await test(db, email);
  } finally {
    await db.cleanup();
  }
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

/** Runs a command of the repository like an operator would; resolves with its exit code and output. */
function run(command: string, args: string[], env: Record<string, string>, options: { until?: RegExp } = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const base = { ...process.env };
    for (const name of ['DATABASE_URL', 'ADMIN_EMAIL', 'ADMIN_PASSWORD', 'ADMIN_PROMOTE', 'NODE_ENV', 'TEST_DB', 'VITEST', 'VITEST_WORKER_ID', 'VITEST_POOL_ID']) delete base[name];
    const child = spawn(command, args, { cwd: root, env: { ...base, APP_SECRET: 'a-test-secret-that-is-long-enough-0123456789', LOG_LEVEL: 'info', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      // A server that started is stopped as an operator would, once it says it is running.
      if (options.until?.test(stdout)) child.kill('SIGTERM');
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const tsx = path.join(root, 'node_modules/.bin/tsx');

describe('the real server and the admin command', () => {
  it('`npm start` with ADMIN_EMAIL naming a member refuses to start, with one line naming ADMIN_EMAIL', { timeout: 180_000 }, () =>
    withMemberDatabase(async (db, email) => {
      const result = await run(tsx, ['apps/api/src/server.ts'], {
        ...db.env,
        PORT: String(await freePort()),
        ADMIN_EMAIL: email,
        ADMIN_PASSWORD,
      });
      expect(result.code).not.toBe(0);
      const lines = result.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('ADMIN_EMAIL');
      expect(lines[0]).toContain('--promote');
      expect(result.stdout).not.toMatch(/Terrafund is running/);

      await db.read(async (handle) => {
        const [row] = await handle.db.select().from(users).where(eq(users.id, db.memberId));
        expect(row!.role).toBe('user');
        expect(await verifyPassword(row!.passwordHash, DEFAULT_PASSWORD)).toBe(true);
      });
    }));

  it('`ADMIN_PROMOTE=true` at start promotes the member with ADMIN_PASSWORD and ends its sessions', { timeout: 180_000 }, () =>
    withMemberDatabase(async (db, email) => {
      // One process (tsx as a loader, not its launcher), so SIGTERM reaches the server's own shutdown.
      const result = await run(
        process.execPath,
        ['--import', 'tsx', 'apps/api/src/server.ts'],
        { ...db.env, PORT: String(await freePort()), HOST: '127.0.0.1', ADMIN_EMAIL: email, ADMIN_PASSWORD, ADMIN_PROMOTE: 'true' },
        { until: /Terrafund is running/ },
      );
      expect(result.stdout).toMatch(/Terrafund is running/);
      expect(result.code).toBe(0);
      await expectPromoted(db, email);
    }));

  it('`npm run admin -- --promote EMAIL` promotes with ADMIN_PASSWORD from the environment', { timeout: 180_000 }, () =>
    withMemberDatabase(async (db, email) => {
      const result = await run('npm', ['run', '--silent', 'admin', '--', '--promote', email.toUpperCase()], { ...db.env, ADMIN_PASSWORD });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`Promoted ${email}`);
      await expectPromoted(db, email);

      const unknown = await run('npm', ['run', '--silent', 'admin', '--', '--promote', uniqueEmail('nobody')], { ...db.env, ADMIN_PASSWORD });
      expect(unknown.code).toBe(1);
      const usage = await run('npm', ['run', '--silent', 'admin', '--', '--promote', email], db.env);
      expect(usage.code).toBe(2);
      expect(usage.stderr).toMatch(/ADMIN_PASSWORD/);
    }));

  it('`npm run admin -- --reset-2fa EMAIL` turns the member\'s 2FA off, ends its sessions, audits and mails', { timeout: 180_000 }, () =>
    withMemberDatabase(async (db, email) => {
      const result = await run('npm', ['run', '--silent', 'admin', '--', '--reset-2fa', email.toUpperCase()], db.env);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`Two-factor sign-in of ${email} reset`);

      await db.read(async (handle) => {
        const [row] = await handle.db.select().from(users).where(eq(users.id, db.memberId));
        expect(row).toMatchObject({ twoFactorSecret: null, twoFactorEnabledAt: null });
        const live = await handle.db.select().from(sessions).where(and(eq(sessions.userId, db.memberId), isNull(sessions.revokedAt)));
        expect(live).toEqual([]);
        const audit = await handle.db.select().from(auditLog).where(eq(auditLog.targetId, db.memberId));
        expect(audit.map((a) => [a.action, a.actorId])).toEqual([['2fa.reset', null]]);
        const mail = await handle.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, email));
        expect(mail.map((m) => m.template)).toEqual(['twoFactorReset']);
      });

      const again = await run('npm', ['run', '--silent', 'admin', '--', '--reset-2fa', email], db.env);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('nothing changed');
      const usage = await run('npm', ['run', '--silent', 'admin', '--', '--reset-2fa', 'not-an-address'], db.env);
      expect(usage.code).toBe(2);
    }, { twoFactor: true }));

  it('`npm run admin:create` creates an admin but never turns a member into one', { timeout: 180_000 }, () =>
    withMemberDatabase(async (db, email) => {
      const refused = await run('npm', ['run', '--silent', 'admin:create', '--', '--email', email, '--password', ADMIN_PASSWORD], db.env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('--promote');
      const fresh = uniqueEmail('boss');
      const created = await run('npm', ['run', '--silent', 'admin:create', '--', '--email', fresh, '--password', ADMIN_PASSWORD], db.env);
      expect(created.code).toBe(0);

      await db.read(async (handle) => {
        const [member] = await handle.db.select().from(users).where(eq(users.email, email));
        expect(member!.role).toBe('user');
        const [admin] = await handle.db.select().from(users).where(eq(users.email, fresh));
        expect(admin!.role).toBe('admin');
      });
    }));
});

async function expectPromoted(db: MemberDatabase, email: string) {
  await db.read(async (handle) => {
    const [row] = await handle.db.select().from(users).where(eq(users.id, db.memberId));
    expect(row!.role).toBe('admin');
    expect(await verifyPassword(row!.passwordHash, ADMIN_PASSWORD)).toBe(true);
    expect(await verifyPassword(row!.passwordHash, DEFAULT_PASSWORD)).toBe(false);
    const live = await handle.db.select().from(sessions).where(and(eq(sessions.userId, db.memberId), isNull(sessions.revokedAt)));
    expect(live).toEqual([]);
    const audit = await handle.db.select().from(auditLog).where(eq(auditLog.targetId, db.memberId));
    expect(audit.map((a) => a.action)).toEqual(['admin.promoted']);
    const mail = await handle.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, email));
    expect(mail.map((m) => m.template)).toContain('adminPromoted');
  });
}

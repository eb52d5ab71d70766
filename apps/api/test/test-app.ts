import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { SQL } from 'drizzle-orm';
import pg from 'pg';
import type { InjectOptions } from 'fastify';
import pino, { type Logger } from 'pino';
import { afterAll, beforeAll, inject } from 'vitest';
import { buildApp, type App } from '../src/app';
import { defaultRateLimits, defaultSessionTtl, type Config, type PaymentSettings, type RateLimits } from '../src/config';
import { connectPglite, connectPostgres, type DatabaseHandle } from '../src/db/client';
import { users } from '../src/db/schema';
import { fixedClock, type FixedClock } from '../src/lib/clock';
import { hashPassword } from '../src/lib/password';
import { memoryStorage } from '../src/lib/storage';
import type { StartupState } from '../src/modules/health/readiness';
import { processOutbox } from '../src/modules/mail/mail.service';
import { memoryTransport, type OutgoingMail } from '../src/modules/mail/mail.transport';
import type { PaymentProvider } from '../src/modules/payments/provider';
import type { PayoutProvider } from '../src/modules/withdrawals/payout-provider';
import { FAKE_BTCPAY, FAKE_NOWPAYMENTS } from './fake-http-server';

/** Generous limits so ordinary tests never trip them; rate-limit tests pass their own. */
const relaxed: RateLimits = Object.fromEntries(
  Object.entries(defaultRateLimits).map(([name, rule]) => [name, { ...rule, limit: 10_000 }]),
) as RateLimits;

/** The relaxed limits with some rules tightened, for rate-limit tests. */
export const testRateLimits = (overrides: Partial<RateLimits>): RateLimits => ({ ...relaxed, ...overrides });

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    env: 'test',
    port: 0,
    host: '127.0.0.1',
    dataDir: '/nonexistent',
    databasePoolSize: 10,
    publicUrl: 'https://app.terrafund.test',
    appSecret: 'test-secret-test-secret-test-secret-0123456789',
    mailFrom: 'Terrafund <no-reply@terrafund.test>',
    contact: { email: 'support@terrafund.test', phone: '+1 201 555 0100' },
    trustProxy: false,
    logLevel: 'silent',
    payoutTime: '00:00',
    kycRetentionDays: 1825,
    rateLimits: relaxed,
    sessionTtl: defaultSessionTtl,
    adminPromote: false,
    requireAdmin2fa: false,
    redisKeyPrefix: `tf-test:${randomBytes(6).toString('hex')}:`,
    webDistDir: undefined,
    runJobs: false,
    payments: testPayments.sandbox(),
    withdrawals: testWithdrawals(),
    ...overrides,
  };
}

/**
 * Money-out settings for a test app: the defaults of config.ts, with PAYOUT_PROVIDER=manual unless a test names
 * another (an admin's approval then completes a withdrawal with the hash it types, as before payouts were sent).
 */
export const testWithdrawals = (overrides: Partial<Config['withdrawals']> = {}): Config['withdrawals'] =>
  ({
    assets: ['BTC', 'LTC', 'ETH', 'USDT-ERC20', 'USDT-TRC20'],
    feeCents: 100,
    dailyLimitCents: 1_000_000,
    dualApprovalCents: 500_000,
    sandboxPayoutSeconds: 3,
    payoutProvider: 'manual',
    ...overrides,
  }) as Config['withdrawals'];

/** PAYMENT_PROVIDER settings for a test app: the sandbox (the default), or a real provider at a fake server. */
export const testPayments = {
  sandbox: (): PaymentSettings => ({ provider: 'sandbox', invoiceExpiryMinutes: 60, sandboxExpiryMinutes: 30 }),
  btcpay: (url: string): PaymentSettings => ({
    provider: 'btcpay',
    invoiceExpiryMinutes: 60,
    sandboxExpiryMinutes: 30,
    btcpay: { url, ...FAKE_BTCPAY },
  }),
  nowpayments: (apiUrl: string): PaymentSettings => ({
    provider: 'nowpayments',
    invoiceExpiryMinutes: 60,
    sandboxExpiryMinutes: 30,
    nowpayments: { apiUrl, ...FAKE_NOWPAYMENTS },
  }),
};

/** A fresh database copied from the run's migrated template. */
export async function createTestDatabase(): Promise<DatabaseHandle> {
  const testDb = inject('testDb');
  if (testDb.kind === 'pglite') {
    const dump = new Blob([readFileSync(testDb.dumpFile)]);
    return connectPglite(undefined, dump);
  }
  const name = `tf_t_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: testDb.adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${testDb.template}`);
  } finally {
    await admin.end();
  }
  const url = new URL(testDb.adminUrl);
  url.pathname = `/${name}`;
  const handle = connectPostgres(url.toString(), 20);
  return {
    ...handle,
    async close() {
      await handle.close();
      const dropper = new pg.Client({ connectionString: testDb.adminUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

export type TestContext = {
  app: App;
  database: DatabaseHandle;
  clock: FixedClock;
  mail: OutgoingMail[];
  /** Runs the outbox worker once and returns what it sent. */
  deliverMail(): Promise<OutgoingMail[]>;
  close(): Promise<void>;
  /** The in-memory file storage behind this app (KYC uploads). */
  storage: ReturnType<typeof memoryStorage>;
};

export async function createTestApp(
  options: {
    config?: Partial<Config>;
    clock?: FixedClock;
    paymentProvider?: PaymentProvider;
    payoutProvider?: PayoutProvider | null;
    startup?: StartupState;
    logger?: Logger;
  } = {},
): Promise<TestContext> {
  const database = await createTestDatabase();
  const clock = options.clock ?? fixedClock(new Date());
  const config = testConfig(options.config);
  const logger = options.logger ?? pino({ level: 'silent' });
  const storage = memoryStorage();
  const app = await buildApp({ config, db: database.db, clock, logger, storage, startup: options.startup, paymentProvider: options.paymentProvider, payoutProvider: options.payoutProvider });
  const transport = memoryTransport();
  return {
    app,
    database,
    clock,
    storage,
    mail: transport.sent,
    async deliverMail() {
      const before = transport.sent.length;
      await processOutbox(database.db, {
        secrets: app.deps.secrets,
        clock,
        transport,
        from: config.mailFrom,
        logger,
      });
      return transport.sent.slice(before);
    },
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/**
 * The test app of the enclosing `describe` (or file): created before its tests, closed after them. The object is
 * returned at once and filled in by `beforeAll`, so the tests read it as they would a context of their own.
 */
export function useTestApp(options: Parameters<typeof createTestApp>[0] = {}): TestContext {
  const ctx = {} as TestContext;
  beforeAll(async () => {
    Object.assign(ctx, await createTestApp(options));
  });
  afterAll(() => ctx.close());
  return ctx;
}

let sequence = 0;
export const uniqueEmail = (prefix = 'member') => `${prefix}.${Date.now().toString(36)}.${(sequence += 1)}@example.com`;

export const DEFAULT_PASSWORD = 'correct horse battery';

/** Inserts a user directly (verified unless told otherwise). */
export async function createUser(
  ctx: TestContext,
  overrides: Partial<typeof users.$inferInsert> & { password?: string } = {},
) {
  const { password = DEFAULT_PASSWORD, ...rest } = overrides;
  const now = ctx.clock.now();
  const [row] = await ctx.database.db
    .insert(users)
    .values({
      email: uniqueEmail(),
      firstName: 'Test',
      lastName: 'Member',
      passwordHash: await hashPassword(password),
      emailVerifiedAt: now,
      createdAt: now,
      updatedAt: now,
      ...rest,
    })
    .returning();
  return { ...row!, password };
}

/** Signs in through the API and returns the bearer token. */
export async function loginAs(ctx: TestContext, email: string, password = DEFAULT_PASSWORD, rememberMe = true) {
  const response = await ctx.app.inject({ method: 'POST', url: '/api/users/login', payload: { email, password, rememberMe } });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
  return response.json<{ token: string }>().token;
}

/** A signed-in member and a signed-in admin, for route tests. */
export async function createMemberAndAdmin(ctx: TestContext) {
  const member = await createUser(ctx);
  const admin = await createUser(ctx, { role: 'admin', email: uniqueEmail('admin'), firstName: 'Ada', lastName: 'Admin' });
  return {
    member,
    admin,
    memberToken: await loginAs(ctx, member.email),
    adminToken: await loginAs(ctx, admin.email),
  };
}

/**
 * A signed-in member and a signed-in admin (`createMemberAndAdmin`) for the tests of the enclosing `describe`, made
 * by `beforeAll` after the app (`useTestApp`): the object is returned at once and filled in then.
 */
export function useMemberAndAdmin(ctx: TestContext) {
  const people = {} as Awaited<ReturnType<typeof createMemberAndAdmin>>;
  beforeAll(async () => {
    Object.assign(people, await createMemberAndAdmin(ctx));
  });
  return people;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * A signed-in admin for the tests of the enclosing `describe`, made by `beforeAll` after the app (`useTestApp`):
 * the object is returned at once and filled in then, with the admin's row and bearer token.
 */
export function useAdmin(ctx: TestContext) {
  const admin = {} as Awaited<ReturnType<typeof createUser>> & { token: string };
  beforeAll(async () => {
    const user = await createUser(ctx, { role: 'admin', email: uniqueEmail('admin') });
    Object.assign(admin, user, { token: await loginAs(ctx, user.email) });
  });
  return admin;
}

/**
 * API calls through `app.inject` on the context `context()` returns (read at call time, so a test file can make
 * it before `beforeAll` creates the app): `/api` is prefixed, `token` signs it (anonymous without), `payload`
 * goes as JSON.
 */
export const apiCaller = (context: () => TestContext) => (method: InjectOptions['method'], url: string, token?: string, payload?: unknown) =>
  context().app.inject({
    method,
    url: `/api${url}`,
    headers: token ? bearer(token) : {},
    ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
  });

/** The 6-digit code in the newest mail to `email`. */
export function codeFrom(mail: OutgoingMail[], email: string): string {
  const last = [...mail].reverse().find((m) => m.to === email && /verification code/i.test(m.subject));
  const code = last?.text.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code mailed to ${email}`);
  return code;
}

/** The reset token in the newest reset mail to `email`. */
export function resetTokenFrom(mail: OutgoingMail[], email: string): string {
  const last = [...mail].reverse().find((m) => m.to === email && /reset/i.test(m.subject));
  const token = last?.text.match(/reset-password\?token=([A-Za-z0-9_%-]+)/)?.[1];
  if (!token) throw new Error(`no reset link mailed to ${email}`);
  return decodeURIComponent(token);
}

/** Rows of a raw SQL query, the same on PGlite and node-postgres. */
export async function rows<T = Record<string, unknown>>(ctx: TestContext, query: SQL): Promise<T[]> {
  const result = (await ctx.database.db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** An id that names nothing. */
export const randomId = () => randomUUID();

/** A 6-digit code that differs from `code`. */
export const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@terrafund/contracts';
import { auditLog, twoFactorRecoveryCodes, users } from '../../db/schema';
import {
  bearer,
  createTestApp,
  createUser,
  DEFAULT_PASSWORD,
  loginAs,
  testRateLimits,
  useTestApp,
  type TestContext,
} from '../../../test/test-app';

const MINUTE = 60_000;
const STEP = 30_000;

/** An authenticator app: the code for `secret` at the test clock's time (plus `offsetMs`). */
const codeAt = (ctx: TestContext, secret: string, offsetMs = 0) =>
  new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({
    timestamp: ctx.clock.now().getTime() + offsetMs,
  });

/** A code that is none of the three accepted around now. */
function wrongCodeFor(ctx: TestContext, secret: string) {
  const near = new Set([-STEP, 0, STEP].map((o) => codeAt(ctx, secret, o)));
  for (let n = 0; ; n += 1) {
    const candidate = String(n).padStart(6, '0');
    if (!near.has(candidate)) return candidate;
  }
}

async function post(ctx: TestContext, url: string, payload: unknown, token?: string) {
  return ctx.app.inject({ method: 'POST', url, payload: payload as object, headers: token ? bearer(token) : {} });
}

/** A member with 2FA on: returns the secret, the recovery codes and a signed-in token. */
async function memberWithTwoFactor(ctx: TestContext, overrides: Parameters<typeof createUser>[1] = {}) {
  const member = await createUser(ctx, overrides);
  const token = await loginAs(ctx, member.email);
  const setup = (await post(ctx, '/api/users/2fa/setup', {}, token)).json<{ secret: string; otpauthUrl: string }>();
  const enabled = await post(ctx, '/api/users/2fa/enable', { code: codeAt(ctx, setup.secret) }, token);
  expect(enabled.statusCode).toBe(200);
  // The next sign-in must use a later code than the one that confirmed the setup in these tests.
  ctx.clock.advance(STEP);
  return { member, secret: setup.secret, recoveryCodes: enabled.json<{ recoveryCodes: string[] }>().recoveryCodes, token };
}

async function startLogin(ctx: TestContext, email: string, password = DEFAULT_PASSWORD) {
  const response = await post(ctx, '/api/users/login', { email, password, rememberMe: true });
  expect(response.statusCode).toBe(200);
  const body = response.json();
  expect(body).toEqual({ twoFactorRequired: true, challenge: expect.any(String) });
  return body.challenge as string;
}

describe('two-factor sign-in', () => {
  const ctx = useTestApp();

  it('sets up a secret, enables it with a right code only, and shows it on the profile', async () => {
    const member = await createUser(ctx);
    const token = await loginAs(ctx, member.email);
    const first = (await post(ctx, '/api/users/2fa/setup', {}, token)).json();
    const setup = await post(ctx, '/api/users/2fa/setup', {}, token);
    expect(setup.statusCode).toBe(200);
    const { secret, otpauthUrl } = setup.json();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(secret).not.toBe(first.secret);
    expect(otpauthUrl).toBe(`otpauth://totp/Terrafund:${member.email}?secret=${secret}&issuer=Terrafund`);

    // Nothing is on yet, and the secret is not stored in the clear.
    const profile = await ctx.app.inject({ method: 'GET', url: '/api/users/profile', headers: bearer(token) });
    expect(profile.json().twoFactorEnabled).toBe(false);
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, member.id));
    expect(row!.twoFactorPendingSecret).not.toContain(secret);

    // The replaced secret's code no longer enables anything.
    const stale = await post(ctx, '/api/users/2fa/enable', { code: codeAt(ctx, first.secret) }, token);
    expect(stale.statusCode).toBe(400);
    const wrong = await post(ctx, '/api/users/2fa/enable', { code: wrongCodeFor(ctx, secret) }, token);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(messages.twoFactor.codeInvalid);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/users/profile', headers: bearer(token) })).json().twoFactorEnabled).toBe(false);

    const enabled = await post(ctx, '/api/users/2fa/enable', { code: codeAt(ctx, secret) }, token);
    expect(enabled.statusCode).toBe(200);
    const { recoveryCodes } = enabled.json();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    const stored = await ctx.database.db.select().from(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, member.id));
    expect(stored).toHaveLength(10);
    for (const code of recoveryCodes) expect(JSON.stringify(stored)).not.toContain(code);

    expect((await ctx.app.inject({ method: 'GET', url: '/api/users/profile', headers: bearer(token) })).json().twoFactorEnabled).toBe(true);
    const mail = await ctx.deliverMail();
    expect(mail.some((m) => m.to === member.email && /two-factor sign-in is on/i.test(m.subject))).toBe(true);
    const audit = await ctx.database.db.select().from(auditLog).where(eq(auditLog.targetId, member.id));
    expect(audit.map((a) => a.action)).toContain('2fa.enabled');
  });

  it('asks for the second factor after the password, and answers it like a plain sign-in', async () => {
    const { member, secret } = await memberWithTwoFactor(ctx);
    const challenge = await startLogin(ctx, member.email);
    const plain = await post(ctx, '/api/users/login', { email: member.email, password: DEFAULT_PASSWORD });
    expect(plain.json().token).toBeUndefined();

    const signedIn = await post(ctx, '/api/users/login/2fa', { challenge, code: codeAt(ctx, secret) });
    expect(signedIn.statusCode).toBe(200);
    const body = signedIn.json();
    expect(Object.keys(body).sort()).toEqual(['token', 'user']);
    expect(body.user).toMatchObject({ email: member.email, twoFactorEnabled: true });
    const profile = await ctx.app.inject({ method: 'GET', url: '/api/users/profile', headers: bearer(body.token) });
    expect(profile.statusCode).toBe(200);

    // The challenge is single use.
    const again = await post(ctx, '/api/users/login/2fa', { challenge, code: codeAt(ctx, secret) });
    expect(again.statusCode).toBe(401);
  });

  it('refuses a code already used for a sign-in (no replay), and accepts the next step', async () => {
    const { member, secret } = await memberWithTwoFactor(ctx);
    const code = codeAt(ctx, secret);
    expect((await post(ctx, '/api/users/login/2fa', { challenge: await startLogin(ctx, member.email), code })).statusCode).toBe(200);
    const replay = await post(ctx, '/api/users/login/2fa', { challenge: await startLogin(ctx, member.email), code });
    expect(replay.statusCode).toBe(400);
    // The previous step's code is within the drift window but older than the one used: refused as well.
    const older = await post(ctx, '/api/users/login/2fa', { challenge: await startLogin(ctx, member.email), code: codeAt(ctx, secret, -STEP) });
    expect(older.statusCode).toBe(400);
    ctx.clock.advance(STEP);
    const next = await post(ctx, '/api/users/login/2fa', { challenge: await startLogin(ctx, member.email), code: codeAt(ctx, secret) });
    expect(next.statusCode).toBe(200);
  });

  it('accepts a code one step off either way, not two', async () => {
    const { member, secret } = await memberWithTwoFactor(ctx);
    const late = await post(ctx, '/api/users/login/2fa', { challenge: await startLogin(ctx, member.email), code: codeAt(ctx, secret, -2 * STEP) });
    expect(late.statusCode).toBe(400);
    const early = await post(ctx, '/api/users/login/2fa', { challenge: await startLogin(ctx, member.email), code: codeAt(ctx, secret, STEP) });
    expect(early.statusCode).toBe(200);
  });

  it('accepts each recovery code once', async () => {
    const { member, recoveryCodes } = await memberWithTwoFactor(ctx);
    const [first, second] = recoveryCodes as [string, string];
    expect((await post(ctx, '/api/users/login/2fa', { challenge: await startLogin(ctx, member.email), code: first })).statusCode).toBe(200);
    expect((await post(ctx, '/api/users/login/2fa', { challenge: await startLogin(ctx, member.email), code: first })).statusCode).toBe(400);
    // Typed in capitals without the dash, it is the same code.
    const typed = second.replace('-', '').toUpperCase();
    expect((await post(ctx, '/api/users/login/2fa', { challenge: await startLogin(ctx, member.email), code: typed })).statusCode).toBe(200);
  });

  it('ends a challenge at the fifth wrong code (401), even for a right code after it', async () => {
    const { member, secret } = await memberWithTwoFactor(ctx);
    const challenge = await startLogin(ctx, member.email);
    const wrong = wrongCodeFor(ctx, secret);
    for (let i = 1; i <= 4; i += 1) {
      expect((await post(ctx, '/api/users/login/2fa', { challenge, code: wrong })).statusCode).toBe(400);
    }
    const fifth = await post(ctx, '/api/users/login/2fa', { challenge, code: wrong });
    expect(fifth.statusCode).toBe(401);
    expect(fifth.json().message).toBe(messages.twoFactor.challengeEnded);
    expect((await post(ctx, '/api/users/login/2fa', { challenge, code: codeAt(ctx, secret) })).statusCode).toBe(401);
    // Signing in again works.
    const fresh = await post(ctx, '/api/users/login/2fa', { challenge: await startLogin(ctx, member.email), code: codeAt(ctx, secret) });
    expect(fresh.statusCode).toBe(200);
  });

  it('expires a challenge after 10 minutes', async () => {
    const { member, secret } = await memberWithTwoFactor(ctx);
    const challenge = await startLogin(ctx, member.email);
    ctx.clock.advance(10 * MINUTE);
    expect((await post(ctx, '/api/users/login/2fa', { challenge, code: codeAt(ctx, secret) })).statusCode).toBe(401);
    const unknown = await post(ctx, '/api/users/login/2fa', { challenge: 'not-a-challenge', code: '123456' });
    expect(unknown.statusCode).toBe(401);
    const bad = await post(ctx, '/api/users/login/2fa', { challenge });
    expect(bad.statusCode).toBe(400);
  });

  it('disables with the password and a code, mails the member, and signs in with the password alone after', async () => {
    const { member, secret, token } = await memberWithTwoFactor(ctx);
    await ctx.deliverMail();
    const wrongPassword = await post(ctx, '/api/users/2fa/disable', { password: 'not the password', code: codeAt(ctx, secret) }, token);
    expect(wrongPassword.statusCode).toBe(400);
    const wrongCode = await post(ctx, '/api/users/2fa/disable', { password: DEFAULT_PASSWORD, code: wrongCodeFor(ctx, secret) }, token);
    expect(wrongCode.statusCode).toBe(400);
    const disabled = await post(ctx, '/api/users/2fa/disable', { password: DEFAULT_PASSWORD, code: codeAt(ctx, secret) }, token);
    expect(disabled.statusCode).toBe(200);
    const mail = await ctx.deliverMail();
    expect(mail.some((m) => m.to === member.email && /two-factor sign-in is off/i.test(m.subject))).toBe(true);
    const audit = await ctx.database.db.select().from(auditLog).where(eq(auditLog.targetId, member.id));
    expect(audit.map((a) => a.action)).toContain('2fa.disabled');
    const login = await post(ctx, '/api/users/login', { email: member.email, password: DEFAULT_PASSWORD });
    expect(login.json().token).toEqual(expect.any(String));
    expect((await ctx.app.inject({ method: 'GET', url: '/api/users/profile', headers: bearer(token) })).json().twoFactorEnabled).toBe(false);
  });
});

describe('wrong second factors count as failed sign-ins', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({
      config: { rateLimits: testRateLimits({ loginFailuresPerPair: { limit: 7, windowSeconds: 15 * 60 } }) },
    });
  });
  afterAll(() => ctx.close());

  it('stops guessing across fresh challenges: a right password does not forget wrong codes', async () => {
    const { member, secret } = await memberWithTwoFactor(ctx);
    const wrong = wrongCodeFor(ctx, secret);
    const first = await startLogin(ctx, member.email);
    for (let i = 0; i < 5; i += 1) await post(ctx, '/api/users/login/2fa', { challenge: first, code: wrong });
    const second = await startLogin(ctx, member.email);
    await post(ctx, '/api/users/login/2fa', { challenge: second, code: wrong });
    await post(ctx, '/api/users/login/2fa', { challenge: second, code: wrong });
    // Seven failures: the pair is blocked, for the code and for the password alike.
    expect((await post(ctx, '/api/users/login/2fa', { challenge: second, code: codeAt(ctx, secret) })).statusCode).toBe(429);
    expect((await post(ctx, '/api/users/login', { email: member.email, password: DEFAULT_PASSWORD })).statusCode).toBe(429);
  });
});

describe('REQUIRE_ADMIN_2FA', () => {
  const ctx = useTestApp({ config: { requireAdmin2fa: true } });

  it('refuses admin routes to an admin without 2FA (403 TWO_FACTOR_REQUIRED) but lets them set it up', async () => {
    const admin = await createUser(ctx, { role: 'admin' });
    const token = await loginAs(ctx, admin.email);
    for (const url of ['/api/admin/users', '/api/admin/audit', '/api/admin/dashboard/stats']) {
      const refused = await ctx.app.inject({ method: 'GET', url, headers: bearer(token) });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().code).toBe('TWO_FACTOR_REQUIRED');
    }
    expect((await ctx.app.inject({ method: 'GET', url: '/api/users/profile', headers: bearer(token) })).statusCode).toBe(200);
    const { secret } = (await post(ctx, '/api/users/2fa/setup', {}, token)).json();
    expect((await post(ctx, '/api/users/2fa/enable', { code: codeAt(ctx, secret) }, token)).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/admin/users', headers: bearer(token) })).statusCode).toBe(200);
    // A member still gets the plain 403.
    const member = await createUser(ctx);
    const memberCall = await ctx.app.inject({ method: 'GET', url: '/api/admin/users', headers: bearer(await loginAs(ctx, member.email)) });
    expect(memberCall.json().code).toBe('FORBIDDEN');
  });
});

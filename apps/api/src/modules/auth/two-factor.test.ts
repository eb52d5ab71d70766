import { and, eq, isNull } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@terrafund/contracts';
import { resetTwoFactor } from './two-factor.service';
import { auditLog, kycDocuments, sessions, transactions, twoFactorChallenges, twoFactorRecoveryCodes, users } from '../../db/schema';
import {
  bearer,
  createTestApp,
  createUser,
  DEFAULT_PASSWORD,
  loginAs,
  resetTokenFrom,
  testRateLimits,
  uniqueEmail,
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
  const setup = (await post(ctx, '/api/users/2fa/setup', { password: DEFAULT_PASSWORD }, token)).json<{ secret: string; otpauthUrl: string }>();
  const enabled = await post(ctx, '/api/users/2fa/enable', { password: DEFAULT_PASSWORD, code: codeAt(ctx, setup.secret) }, token);
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
    const first = (await post(ctx, '/api/users/2fa/setup', { password: DEFAULT_PASSWORD }, token)).json();
    const setup = await post(ctx, '/api/users/2fa/setup', { password: DEFAULT_PASSWORD }, token);
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
    const stale = await post(ctx, '/api/users/2fa/enable', { password: DEFAULT_PASSWORD, code: codeAt(ctx, first.secret) }, token);
    expect(stale.statusCode).toBe(400);
    const wrong = await post(ctx, '/api/users/2fa/enable', { password: DEFAULT_PASSWORD, code: wrongCodeFor(ctx, secret) }, token);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(messages.twoFactor.codeInvalid);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/users/profile', headers: bearer(token) })).json().twoFactorEnabled).toBe(false);

    const enabled = await post(ctx, '/api/users/2fa/enable', { password: DEFAULT_PASSWORD, code: codeAt(ctx, secret) }, token);
    expect(enabled.statusCode).toBe(200);
    const { recoveryCodes } = enabled.json();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    const stored = await ctx.database.db.select().from(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, member.id));
    expect(stored).toHaveLength(10);
    for (const code of recoveryCodes) expect(JSON.stringify(stored)).not.toContain(code);

    expect((await ctx.app.inject({ method: 'GET', url: '/api/users/profile', headers: bearer(token) })).json().twoFactorEnabled).toBe(true);
    const mail = await ctx.deliverMail();
    expect(mail.some((m) => m.to === member.email && /two-factor sign-in was turned on/i.test(m.subject))).toBe(true);
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

describe('two-factor changes need the password', () => {
  const ctx = useTestApp();
  const passwordIncorrect = { message: messages.twoFactor.passwordIncorrect, code: 'VALIDATION_ERROR', fields: { password: messages.twoFactor.passwordIncorrect } };
  const pendingSecretOf = async (id: string) => (await ctx.database.db.select().from(users).where(eq(users.id, id)))[0]!.twoFactorPendingSecret;

  it('refuses setup without the password or with a wrong one (400 on password, as disable), and sets nothing up', async () => {
    const member = await createUser(ctx);
    const token = await loginAs(ctx, member.email);
    for (const body of [{}, { password: '' }, { password: 'not the password' }, { password: 42 }]) {
      const refused = await post(ctx, '/api/users/2fa/setup', body, token);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      expect(refused.json()).toEqual(passwordIncorrect);
    }
    expect(await pendingSecretOf(member.id)).toBeNull();
    const setup = await post(ctx, '/api/users/2fa/setup', { password: DEFAULT_PASSWORD }, token);
    expect(setup.statusCode).toBe(200);
    expect(await pendingSecretOf(member.id)).not.toBeNull();
  });

  it('refuses enable without the password or with a wrong one, even with a right code, and turns nothing on', async () => {
    const member = await createUser(ctx);
    const token = await loginAs(ctx, member.email);
    const { secret } = (await post(ctx, '/api/users/2fa/setup', { password: DEFAULT_PASSWORD }, token)).json();
    const missing = await post(ctx, '/api/users/2fa/enable', { code: codeAt(ctx, secret) }, token);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual(passwordIncorrect);
    const wrong = await post(ctx, '/api/users/2fa/enable', { password: 'not the password', code: codeAt(ctx, secret) }, token);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual(passwordIncorrect);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/users/profile', headers: bearer(token) })).json().twoFactorEnabled).toBe(false);
    expect(await ctx.database.db.select().from(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, member.id))).toEqual([]);
  });

  it('enabling ends every other session, keeps the caller\'s, and mails the owner', async () => {
    const member = await createUser(ctx, { firstName: 'Orla' });
    const token = await loginAs(ctx, member.email);
    const others = [await loginAs(ctx, member.email), await loginAs(ctx, member.email, DEFAULT_PASSWORD, false)];
    await ctx.deliverMail();
    const { secret } = (await post(ctx, '/api/users/2fa/setup', { password: DEFAULT_PASSWORD }, token)).json();
    // Setting up alone ends nothing.
    for (const other of others) expect((await ctx.app.inject({ method: 'GET', url: '/api/users/profile', headers: bearer(other) })).statusCode).toBe(200);
    expect((await post(ctx, '/api/users/2fa/enable', { password: DEFAULT_PASSWORD, code: codeAt(ctx, secret) }, token)).statusCode).toBe(200);

    expect((await ctx.app.inject({ method: 'GET', url: '/api/users/profile', headers: bearer(token) })).statusCode).toBe(200);
    for (const other of others) expect((await ctx.app.inject({ method: 'GET', url: '/api/users/profile', headers: bearer(other) })).statusCode).toBe(401);
    const live = await ctx.database.db.select().from(sessions).where(and(eq(sessions.userId, member.id), isNull(sessions.revokedAt)));
    expect(live).toHaveLength(1);
    const mail = (await ctx.deliverMail()).filter((m) => m.to === member.email);
    expect(mail.map((m) => m.subject)).toEqual(['Two-factor sign-in was turned on | Terrafund']);
    expect(mail[0]!.text).toContain('Orla');
    expect(mail[0]!.text).toMatch(/every other session of the account was signed out/i);
    const [audit] = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.targetId, member.id), eq(auditLog.action, '2fa.enabled')));
    expect(audit!.after).toMatchObject({ twoFactorEnabled: true, otherSessionsEnded: true });
  });

  it('never replaces an enabled secret: setup is 409 with or without the password, and the old secret still signs in', async () => {
    const { member, secret, token } = await memberWithTwoFactor(ctx);
    const [before] = await ctx.database.db.select().from(users).where(eq(users.id, member.id));
    for (const body of [{ password: DEFAULT_PASSWORD }, { password: 'not the password' }]) {
      const refused = await post(ctx, '/api/users/2fa/setup', body, token);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().code).toBe('CONFLICT');
    }
    const [after] = await ctx.database.db.select().from(users).where(eq(users.id, member.id));
    expect(after).toMatchObject({ twoFactorSecret: before!.twoFactorSecret, twoFactorPendingSecret: null });
    const signedIn = await post(ctx, '/api/users/login/2fa', { challenge: await startLogin(ctx, member.email), code: codeAt(ctx, secret) });
    expect(signedIn.statusCode).toBe(200);
  });
});

describe('a new password ends the sign-ins waiting for a code', () => {
  const ctx = useTestApp();

  it('refuses, after a password reset, the code of a challenge issued before it', async () => {
    const { member, secret } = await memberWithTwoFactor(ctx);
    const challenge = await startLogin(ctx, member.email);
    await post(ctx, '/api/users/forgot-password', { email: member.email });
    const token = resetTokenFrom(await ctx.deliverMail(), member.email);
    expect((await post(ctx, '/api/users/reset-password', { token, newPassword: 'Quiet-Lantern-47!' })).statusCode).toBe(200);

    const late = await post(ctx, '/api/users/login/2fa', { challenge, code: codeAt(ctx, secret) });
    expect(late.statusCode).toBe(401);
    expect(late.json().message).toBe(messages.twoFactor.challengeEnded);
    // The new password and a code sign in.
    const fresh = await post(ctx, '/api/users/login/2fa', { challenge: await startLogin(ctx, member.email, 'Quiet-Lantern-47!'), code: codeAt(ctx, secret) });
    expect(fresh.statusCode).toBe(200);
  });

  it('refuses, after a password change, the code of a challenge issued before it', async () => {
    const { member, secret, token } = await memberWithTwoFactor(ctx);
    const challenge = await startLogin(ctx, member.email);
    const changed = await post(ctx, '/api/users/change-password', { currentPassword: DEFAULT_PASSWORD, newPassword: 'Quiet-Lantern-47!' }, token);
    expect(changed.statusCode).toBe(200);
    expect((await post(ctx, '/api/users/login/2fa', { challenge, code: codeAt(ctx, secret) })).statusCode).toBe(401);
  });
});

describe('repeated wrong codes after a right password mail the owner, at most once an hour', () => {
  const ctx = useTestApp();
  const alertsTo = async (email: string) =>
    (await ctx.deliverMail()).filter((m) => m.to === email && m.subject.startsWith('Someone signed in with your password and failed the second step'));

  it('mails at the third wrong code, not before, and not again within the hour', async () => {
    const { member, secret } = await memberWithTwoFactor(ctx, { firstName: 'Petra' });
    await ctx.deliverMail();
    const wrong = wrongCodeFor(ctx, secret);
    const challenge = await startLogin(ctx, member.email);
    for (let i = 0; i < 2; i += 1) expect((await post(ctx, '/api/users/login/2fa', { challenge, code: wrong })).statusCode).toBe(400);
    expect(await alertsTo(member.email)).toEqual([]);
    expect((await post(ctx, '/api/users/login/2fa', { challenge, code: wrong })).statusCode).toBe(400);
    const [alert, ...more] = await alertsTo(member.email);
    expect(more).toEqual([]);
    expect(alert!.text).toContain('Petra');
    expect(alert!.text).toMatch(/someone signed in with your password and failed the second step/i);
    expect(alert!.text).toContain('3 wrong authentication codes');

    // More wrong codes, in this and a fresh attempt, within the hour: no second mail.
    await post(ctx, '/api/users/login/2fa', { challenge, code: wrong });
    ctx.clock.advance(30 * 60_000);
    const again = await startLogin(ctx, member.email);
    for (let i = 0; i < 3; i += 1) await post(ctx, '/api/users/login/2fa', { challenge: again, code: wrongCodeFor(ctx, secret) });
    expect(await alertsTo(member.email)).toEqual([]);

    // An hour after the first mail, three more wrong codes mail again.
    ctx.clock.advance(31 * 60_000);
    const later = await startLogin(ctx, member.email);
    for (let i = 0; i < 3; i += 1) await post(ctx, '/api/users/login/2fa', { challenge: later, code: wrongCodeFor(ctx, secret) });
    expect(await alertsTo(member.email)).toHaveLength(1);
  });

  it('counts wrong codes across sign-in attempts, but forgets them at a successful sign-in', async () => {
    const { member, secret } = await memberWithTwoFactor(ctx);
    await ctx.deliverMail();
    // Two wrong codes, then the right one: the member fumbled, nothing to tell.
    const first = await startLogin(ctx, member.email);
    for (let i = 0; i < 2; i += 1) await post(ctx, '/api/users/login/2fa', { challenge: first, code: wrongCodeFor(ctx, secret) });
    expect((await post(ctx, '/api/users/login/2fa', { challenge: first, code: codeAt(ctx, secret) })).statusCode).toBe(200);
    ctx.clock.advance(STEP);
    const second = await startLogin(ctx, member.email);
    await post(ctx, '/api/users/login/2fa', { challenge: second, code: wrongCodeFor(ctx, secret) });
    await post(ctx, '/api/users/login/2fa', { challenge: second, code: wrongCodeFor(ctx, secret) });
    expect(await alertsTo(member.email)).toEqual([]);
    // Two wrong codes on one attempt and one on another, after that success: three, mailed.
    const third = await startLogin(ctx, member.email);
    await post(ctx, '/api/users/login/2fa', { challenge: third, code: wrongCodeFor(ctx, secret) });
    expect(await alertsTo(member.email)).toHaveLength(1);
  });

  it('keeps the once-an-hour mark on the member\'s row, where every instance sees it', async () => {
    const { member, secret } = await memberWithTwoFactor(ctx);
    const challenge = await startLogin(ctx, member.email);
    for (let i = 0; i < 3; i += 1) await post(ctx, '/api/users/login/2fa', { challenge, code: wrongCodeFor(ctx, secret) });
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, member.id));
    expect(row!.twoFactorAlertedAt).toEqual(ctx.clock.now());
  });
});

describe('the operator resets a member\'s 2FA (npm run admin -- --reset-2fa)', () => {
  const ctx = useTestApp();

  it('removes the secret and recovery codes, ends every session and pending sign-in, audits 2fa.reset and mails the owner', async () => {
    const { member, token } = await memberWithTwoFactor(ctx, { firstName: 'Ruth' });
    const challenge = await startLogin(ctx, member.email);
    await ctx.deliverMail();

    expect(await resetTwoFactor(ctx.app.deps, member.email)).toBe('reset');

    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, member.id));
    expect(row).toMatchObject({ twoFactorSecret: null, twoFactorPendingSecret: null, twoFactorEnabledAt: null, twoFactorLastStep: null });
    expect(await ctx.database.db.select().from(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, member.id))).toEqual([]);
    expect(await ctx.database.db.select().from(twoFactorChallenges).where(and(eq(twoFactorChallenges.userId, member.id), isNull(twoFactorChallenges.consumedAt)))).toEqual([]);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/users/profile', headers: bearer(token) })).statusCode).toBe(401);
    expect((await post(ctx, '/api/users/login/2fa', { challenge, code: '123456' })).statusCode).toBe(401);
    const [audit] = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.targetId, member.id), eq(auditLog.action, '2fa.reset')));
    expect(audit).toMatchObject({ actorId: null, before: { twoFactorEnabled: true }, after: { twoFactorEnabled: false, sessionsEnded: true } });
    const mail = (await ctx.deliverMail()).filter((m) => m.to === member.email);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toMatch(/two-factor sign-in was turned off by support/i);
    expect(mail[0]!.text).toContain('Ruth');

    // The password alone signs in again, and 2FA can be set up anew.
    const login = await post(ctx, '/api/users/login', { email: member.email, password: DEFAULT_PASSWORD });
    expect(login.json().token).toEqual(expect.any(String));
  });

  it('changes nothing for an account without 2FA or an unknown address', async () => {
    const member = await createUser(ctx);
    const token = await loginAs(ctx, member.email);
    expect(await resetTwoFactor(ctx.app.deps, member.email)).toBe('not-enabled');
    expect((await ctx.app.inject({ method: 'GET', url: '/api/users/profile', headers: bearer(token) })).statusCode).toBe(200);
    expect(await resetTwoFactor(ctx.app.deps, uniqueEmail('nobody'))).toBe('not-found');
    expect(await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.targetId, member.id), eq(auditLog.action, '2fa.reset')))).toEqual([]);
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
    const { secret } = (await post(ctx, '/api/users/2fa/setup', { password: DEFAULT_PASSWORD }, token)).json();
    expect((await post(ctx, '/api/users/2fa/enable', { password: DEFAULT_PASSWORD, code: codeAt(ctx, secret) }, token)).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/admin/users', headers: bearer(token) })).statusCode).toBe(200);
    // A member still gets the plain 403.
    const member = await createUser(ctx);
    const memberCall = await ctx.app.inject({ method: 'GET', url: '/api/admin/users', headers: bearer(await loginAs(ctx, member.email)) });
    expect(memberCall.json().code).toBe('FORBIDDEN');
  });

  it('applies wherever the admin role opens something: another member\'s KYC document link and transaction too', async () => {
    const admin = await createUser(ctx, { role: 'admin' });
    const adminToken = await loginAs(ctx, admin.email);
    const member = await createUser(ctx);
    const memberToken = await loginAs(ctx, member.email);
    const now = ctx.clock.now();
    const [doc] = await ctx.database.db
      .insert(kycDocuments)
      .values({ userId: member.id, documentType: 'idFront', storageKey: `kyc/${member.id}/front`, contentType: 'image/png', sizeBytes: 10, createdAt: now })
      .returning();
    const [tx] = await ctx.database.db
      .insert(transactions)
      .values({ userId: member.id, type: 'payout', amountCents: 300, status: 'completed', description: 'Daily dividend', createdAt: now, updatedAt: now })
      .returning();
    const places = [`/api/kyc/documents/idFront/${doc!.id}/link`, `/api/transactions/${tx!.id}`];

    for (const url of places) {
      const refused = await ctx.app.inject({ method: 'GET', url, headers: bearer(adminToken) });
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json()).toEqual({ message: messages.twoFactor.required, code: 'TWO_FACTOR_REQUIRED' });
      // The owner is not an admin: their own records stay open to them.
      expect((await ctx.app.inject({ method: 'GET', url, headers: bearer(memberToken) })).statusCode, url).toBe(200);
    }
    // An admin's own records are not opened by the admin role.
    const [own] = await ctx.database.db
      .insert(transactions)
      .values({ userId: admin.id, type: 'payout', amountCents: 300, status: 'completed', description: 'Daily dividend', createdAt: now, updatedAt: now })
      .returning();
    expect((await ctx.app.inject({ method: 'GET', url: `/api/transactions/${own!.id}`, headers: bearer(adminToken) })).statusCode).toBe(200);

    const { secret } = (await post(ctx, '/api/users/2fa/setup', { password: DEFAULT_PASSWORD }, adminToken)).json();
    expect((await post(ctx, '/api/users/2fa/enable', { password: DEFAULT_PASSWORD, code: codeAt(ctx, secret) }, adminToken)).statusCode).toBe(200);
    for (const url of places) expect((await ctx.app.inject({ method: 'GET', url, headers: bearer(adminToken) })).statusCode, url).toBe(200);
  });
});

describe('without REQUIRE_ADMIN_2FA', () => {
  const ctx = useTestApp({ config: { requireAdmin2fa: false } });

  it('lets an admin without 2FA open another member\'s transaction', async () => {
    const admin = await createUser(ctx, { role: 'admin' });
    const member = await createUser(ctx);
    const now = ctx.clock.now();
    const [tx] = await ctx.database.db
      .insert(transactions)
      .values({ userId: member.id, type: 'payout', amountCents: 300, status: 'completed', description: 'Daily dividend', createdAt: now, updatedAt: now })
      .returning();
    const answer = await ctx.app.inject({ method: 'GET', url: `/api/transactions/${tx!.id}`, headers: bearer(await loginAs(ctx, admin.email)) });
    expect(answer.statusCode).toBe(200);
  });
});

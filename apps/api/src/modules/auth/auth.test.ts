import { eq, sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import type { PGlite } from '@electric-sql/pglite';
import type argon2 from 'argon2';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { messages } from '@terrafund/contracts';
import { passwordStrengthProblem, personalInputs } from '@terrafund/contracts/password-strength';
import { users } from '../../db/schema';
import {
  bearer,
  codeFrom,
  createTestApp,
  createTestDatabase,
  createUser,
  DEFAULT_PASSWORD,
  loginAs,
  otherCode,
  randomId,
  resetTokenFrom,
  rows,
  testConfig,
  testRateLimits,
  uniqueEmail,
  useTestApp,
  type TestContext,
} from '../../../test/test-app';
import pino from 'pino';
import { buildApp, type App } from '../../app';
import type { Database } from '../../db/client';
import * as schema from '../../db/schema';
import { defaultRateLimits } from '../../config';
import { memoryStorage } from '../../lib/storage';

/** Every argon2 call the server makes, in order (counted, then done for real). */
const argon2Calls = vi.hoisted(() => [] as string[]);
vi.mock('argon2', async (importOriginal) => {
  const actual = await importOriginal<{ default: typeof argon2 }>();
  const counted = (name: 'hash' | 'verify') => (...args: unknown[]) => {
    argon2Calls.push(name);
    return (actual.default[name] as (...a: unknown[]) => unknown)(...args);
  };
  return { ...actual, default: { ...actual.default, hash: counted('hash'), verify: counted('verify') } };
});

const PUBLIC_URL = 'https://app.terrafund.test';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const sessionExpired = { message: 'Session expired. Please login again.', code: 'UNAUTHENTICATED' };
const invalidCredentials = { message: 'Invalid email or password', code: 'INVALID_CREDENTIALS' };
const invalidResetLink = 'Invalid reset link. Please request a new password reset.';

/** Nothing a response carries may look like a stored password. */
function expectNoSecrets(body: string) {
  expect(body).not.toMatch(/passwordHash|password_hash|\$argon2/i);
}

describe('auth routes', () => {
  const ctx = useTestApp();

  const call = (method: InjectOptions['method'], url: string, payload?: object, headers: Record<string, string> = {}) =>
    ctx.app.inject({ method, url: `/api${url}`, payload, headers });
  const post = (url: string, payload?: object, headers?: Record<string, string>) => call('POST', url, payload, headers);
  const profile = (token: string) => call('GET', '/users/profile', undefined, bearer(token));
  const mailTo = async (email: string) => (await ctx.deliverMail()).filter((m) => m.to === email);

  async function register(overrides: Record<string, string> = {}) {
    const body = {
      firstName: 'Jane',
      lastName: 'Doe',
      email: uniqueEmail('reg'),
      password: 'a-long-enough-password',
      phone: '+1 555 0100',
      ...overrides,
    };
    const response = await post('/users/register', body);
    expect(response.statusCode).toBe(201);
    return { ...body, email: body.email.trim().toLowerCase() };
  }

  async function registerWithCode(overrides: Record<string, string> = {}) {
    const user = await register(overrides);
    const mail = await mailTo(user.email);
    expect(mail).toHaveLength(1);
    return { ...user, code: codeFrom(mail, user.email) };
  }

  const verify = (email: string, otp: string) => post('/users/verify-otp', { email, otp });

  describe('registration and e-mail verification', () => {
    it('registers, mails a 6-digit code, verifies it and signs the member in', async () => {
      const email = `  Jane.Doe.${Date.now()}@Example.COM `;
      const response = await post('/users/register', {
        firstName: 'Jane',
        lastName: 'Doe',
        email,
        password: 'a-long-enough-password',
        phone: '+1 555 0100',
      });
      const normalized = email.trim().toLowerCase();
      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual({ requiresVerification: true, email: normalized, message: expect.any(String) });
      expect(response.json()).not.toHaveProperty('token');

      const mail = await mailTo(normalized);
      expect(mail).toHaveLength(1);
      const [message] = mail;
      expect(message!.subject).toContain('Terrafund');
      expect(message!.text).toContain('Terrafund');
      expect(message!.html).toContain('Terrafund');
      const code = codeFrom(mail, normalized);
      expect(code).toMatch(/^\d{6}$/);
      expect(message!.text).toContain(code);
      expect(message!.html).toContain(code);

      // Not signed in before verifying.
      const early = await post('/users/login', { email: normalized, password: 'a-long-enough-password' });
      expect(early.json()).toMatchObject({ requiresVerification: true });

      const verified = await verify(normalized, code);
      expect(verified.statusCode).toBe(200);
      const { token, user } = verified.json();
      expect(token).toEqual(expect.any(String));
      expect(user).toMatchObject({
        email: normalized,
        firstName: 'Jane',
        lastName: 'Doe',
        phone: '+1 555 0100',
        role: 'user',
        isEmailVerified: true,
        kycStatus: 'not_started',
        kycVerified: false,
        balance: 0,
      });
      expect(user._id).toEqual(expect.any(String));
      expectNoSecrets(verified.body);

      const me = await profile(token);
      expect(me.statusCode).toBe(200);
      expect(me.json()).toMatchObject({ _id: user._id, email: normalized, isEmailVerified: true });
      expectNoSecrets(me.body);

      // The code is single use.
      expect((await verify(normalized, code)).statusCode).toBe(400);
      // And the password now signs in.
      const login = await post('/users/login', { email: normalized, password: 'a-long-enough-password' });
      expect(login.statusCode).toBe(200);
      expect(login.json()).toMatchObject({ token: expect.any(String), user: { _id: user._id } });
      expectNoSecrets(login.body);
    });

    it('has written the account, its code and its mail by the time it answers 201', async () => {
      const email = uniqueEmail('durable');
      const response = await post('/users/register', { firstName: 'Dora', lastName: 'Durable', email, password: 'Tf-correct-horse-9' });
      expect(response.statusCode).toBe(201);
      // Looked at the moment the answer is in: nothing of a sign-up is left to happen after it.
      const [account] = await rows<{ id: string; email_verified_at: Date | null }>(ctx, sql`select id, email_verified_at from users where email = ${email}`);
      expect(account).toMatchObject({ email_verified_at: null });
      expect(await rows(ctx, sql`select id from email_codes where user_id = ${account!.id} and consumed_at is null`)).toHaveLength(1);
      expect(await rows(ctx, sql`select template, status from mail_outbox where recipient = ${email}`)).toEqual([
        { template: 'verificationCode', status: 'pending' },
      ]);
    });

    it('answers a registration of an existing verified address exactly like a new one and tells the owner', async () => {
      const owner = await createUser(ctx, { email: uniqueEmail('owner'), firstName: 'Olive' });
      const fresh = await post('/users/register', {
        firstName: 'Mallory',
        lastName: 'Doe',
        email: uniqueEmail('fresh'),
        password: 'another-password-1',
      });
      const taken = await post('/users/register', {
        firstName: 'Mallory',
        lastName: 'Doe',
        email: owner.email.toUpperCase(),
        password: 'another-password-1',
      });
      expect(taken.statusCode).toBe(fresh.statusCode);
      expect(Object.keys(taken.json()).sort()).toEqual(Object.keys(fresh.json()).sort());
      expect(taken.json()).toEqual({ ...fresh.json(), email: owner.email });

      const toOwner = await mailTo(owner.email);
      expect(toOwner).toHaveLength(1);
      expect(toOwner[0]!.subject).toMatch(/someone tried to sign up with your address/i);
      expect(toOwner[0]!.text).toMatch(/someone tried to sign up with your address/i);
      expect(toOwner[0]!.text).not.toMatch(/\b\d{6}\b/);
      expect(toOwner[0]!.text).toContain(`${PUBLIC_URL}/login`);
      expect(await rows(ctx, sql`select id from email_codes where user_id = ${owner.id}`)).toHaveLength(0);

      // Nothing about the account changed: the original password still works, the new one does not.
      const [row] = await ctx.database.db.select().from(users).where(eq(users.id, owner.id));
      expect(row).toMatchObject({ firstName: 'Olive', passwordHash: owner.passwordHash });
      expect((await post('/users/login', { email: owner.email, password: DEFAULT_PASSWORD })).statusCode).toBe(200);
      expect((await post('/users/login', { email: owner.email, password: 'another-password-1' })).json()).toEqual(
        invalidCredentials,
      );
    });

    it('lets a later registration of an unverified address replace the earlier one: only its password signs in', async () => {
      const email = uniqueEmail('victim');
      // The attacker registers the victim's address first, with a password of their choosing.
      const attacker = await register({ email, firstName: 'Mallory', lastName: 'Attacker', phone: '+1 555 0666', password: 'Mallory-owns-this-9' });
      // The owner registers seconds later, inside the resend cooldown: a fresh code is mailed all the same.
      ctx.clock.advance(5_000);
      const owner = await register({ email, firstName: 'Olive', lastName: 'Owner', phone: '+1 555 0100', password: 'Quiet-Lantern-47!' });
      const mail = await mailTo(email);
      expect(mail).toHaveLength(2);
      const [attackerCode, ownerCode] = mail.map((m) => codeFrom([m], email));
      expect(mail[1]!.text).toContain('Olive');

      // Every earlier code is void, and the account now holds the later registration entirely.
      if (attackerCode !== ownerCode) expect((await verify(email, attackerCode!)).statusCode).toBe(400);
      const [pending] = await ctx.database.db.select().from(users).where(eq(users.email, email));
      expect(pending).toMatchObject({ firstName: 'Olive', lastName: 'Owner', phone: '+1 555 0100', emailVerifiedAt: null });
      const live = await rows(ctx, sql`select id from email_codes where user_id = ${pending!.id} and consumed_at is null`);
      expect(live).toHaveLength(1);

      const verified = await verify(email, ownerCode!);
      expect(verified.statusCode).toBe(200);
      expect(verified.json().user).toMatchObject({ firstName: 'Olive', lastName: 'Owner', phone: '+1 555 0100' });
      expect((await post('/users/login', { email, password: owner.password })).statusCode).toBe(200);
      const stale = await post('/users/login', { email, password: attacker.password });
      expect(stale.statusCode).toBe(400);
      expect(stale.json()).toEqual(invalidCredentials);
    });

    it('keeps only the latest registration of an unverified address, whoever came last', async () => {
      const email = uniqueEmail('pending');
      const first = await register({ email, password: 'First-try-Lantern-31' });
      const second = await register({ email, password: 'Second-try-Harbour-52' });
      const codes = (await mailTo(email)).map((m) => codeFrom([m], email));
      expect(codes).toHaveLength(2);
      expect((await verify(email, codes[1]!)).statusCode).toBe(200);
      expect((await post('/users/login', { email, password: second.password })).statusCode).toBe(200);
      expect((await post('/users/login', { email, password: first.password })).json()).toEqual(invalidCredentials);
    });

    it('voids the reset links of a replaced registration', async () => {
      const email = uniqueEmail('pending');
      await register({ email, password: 'First-try-Lantern-31' });
      await post('/users/forgot-password', { email });
      const token = resetTokenFrom(await ctx.deliverMail(), email);
      // Written by the time it is answered.
      await register({ email, password: 'Second-try-Harbour-52' });
      const reset = await post('/users/reset-password', { token, newPassword: 'Third-try-Meadow-73' });
      expect(reset.statusCode).toBe(400);
      expect(reset.json().message).toBe(invalidResetLink);
    });

    it('login of an unverified account answers requiresVerification and mails a fresh code only after the cooldown', async () => {
      const user = await registerWithCode();

      ctx.clock.advance(5_000);
      const first = await post('/users/login', { email: user.email, password: user.password });
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ requiresVerification: true, email: user.email, message: expect.any(String) });
      expect(await mailTo(user.email)).toHaveLength(0);

      // A wrong password on an unverified account is just a wrong password.
      expect((await post('/users/login', { email: user.email, password: 'not-the-password' })).json()).toEqual(
        invalidCredentials,
      );

      ctx.clock.advance(56_000);
      const second = await post('/users/login', { email: user.email, password: user.password });
      expect(second.json()).toMatchObject({ requiresVerification: true, email: user.email });
      const mail = await mailTo(user.email);
      expect(mail).toHaveLength(1);
      const fresh = codeFrom(mail, user.email);
      if (fresh !== user.code) expect((await verify(user.email, user.code)).statusCode).toBe(400);
      expect((await verify(user.email, fresh)).statusCode).toBe(200);
    });

    it('refuses a resend within 60 s with 429 and Retry-After; later it mails a new code and voids the old one', async () => {
      const user = await registerWithCode();

      ctx.clock.advance(20_000);
      const early = await post('/users/resend-otp', { email: user.email });
      expect(early.statusCode).toBe(429);
      const body = early.json();
      expect(body.code).toBe('RATE_LIMITED');
      expect(body.retryAfter).toBeGreaterThan(0);
      expect(body.retryAfter).toBeLessThanOrEqual(60);
      expect(body.retryAfter).toBe(40);
      expect(early.headers['retry-after']).toBe(String(body.retryAfter));
      expect(await mailTo(user.email)).toHaveLength(0);

      ctx.clock.advance(41_000);
      const later = await post('/users/resend-otp', { email: user.email });
      expect(later.statusCode).toBe(200);
      expect(later.json()).toEqual({ message: 'OTP sent successfully' });
      const mail = await mailTo(user.email);
      expect(mail).toHaveLength(1);
      const fresh = codeFrom(mail, user.email);

      if (fresh !== user.code) {
        const old = await verify(user.email, user.code);
        expect(old.statusCode).toBe(400);
        expect(old.json()).toMatchObject({ message: messages.auth.invalidOtp, fields: { otp: messages.auth.invalidOtp } });
      }
      expect((await verify(user.email, fresh)).statusCode).toBe(200);
    });

    it('answers a resend for an unknown or verified address like a sent code, and mails nothing', async () => {
      const unknown = uniqueEmail('ghost');
      const verified = await createUser(ctx);
      for (const email of [unknown, verified.email]) {
        const response = await post('/users/resend-otp', { email });
        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual({ message: 'OTP sent successfully' });
      }
      const sent = await ctx.deliverMail();
      expect(sent.filter((m) => m.to === unknown || m.to === verified.email)).toHaveLength(0);
    });

    it('lets a code expire after 10 minutes', async () => {
      const late = await registerWithCode();
      const inTime = await registerWithCode();

      ctx.clock.advance(10 * MINUTE - 1_000);
      expect((await verify(inTime.email, inTime.code)).statusCode).toBe(200);

      ctx.clock.advance(2_000);
      const response = await verify(late.email, late.code);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(messages.auth.invalidOtp);
    });

    it('voids a code after 5 wrong tries, but not after 4', async () => {
      const four = await registerWithCode();
      for (let i = 0; i < 4; i += 1) {
        const wrong = await verify(four.email, otherCode(four.code));
        expect(wrong.statusCode).toBe(400);
        expect(wrong.json().message).toBe(messages.auth.invalidOtp);
      }
      expect((await verify(four.email, four.code)).statusCode).toBe(200);

      const five = await registerWithCode();
      for (let i = 1; i <= 5; i += 1) {
        const wrong = await verify(five.email, otherCode(five.code));
        expect(wrong.statusCode).toBe(400);
        expect(wrong.json().message).toBe(i < 5 ? messages.auth.invalidOtp : messages.auth.otpTooManyAttempts);
      }
      const sixth = await verify(five.email, five.code);
      expect(sixth.statusCode).toBe(400);
      const [row] = await ctx.database.db.select().from(users).where(eq(users.email, five.email));
      expect(row!.emailVerifiedAt).toBeNull();
    });

    it('answers a code for an unknown address like a wrong code', async () => {
      const response = await verify(uniqueEmail('ghost'), '123456');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ message: messages.auth.invalidOtp, code: 'VALIDATION_ERROR' });
    });
  });

  describe('validation messages (docs/product.md §10 Messages)', () => {
    let token: string;
    beforeAll(async () => {
      const user = await createUser(ctx);
      token = await loginAs(ctx, user.email);
    });

    const registerBody = { firstName: 'Jane', lastName: 'Doe', email: 'valid.address@example.com', password: 'long-enough-1' };
    const without = (body: Record<string, unknown>, key: string) => Object.fromEntries(Object.entries(body).filter(([k]) => k !== key));

    const cases: { name: string; url: string; method?: 'POST' | 'PATCH'; body: Record<string, unknown>; field: string; message: string; auth?: true }[] = [
      { name: 'register without email', url: '/users/register', body: without(registerBody, 'email'), field: 'email', message: 'Email is required' },
      { name: 'register with empty email', url: '/users/register', body: { ...registerBody, email: '' }, field: 'email', message: 'Email is required' },
      { name: 'register with bad email', url: '/users/register', body: { ...registerBody, email: 'jane@' }, field: 'email', message: 'Invalid email format' },
      { name: 'register with spaced email', url: '/users/register', body: { ...registerBody, email: 'jane doe@example.com' }, field: 'email', message: 'Invalid email format' },
      { name: 'register without password', url: '/users/register', body: without(registerBody, 'password'), field: 'password', message: 'Password is required' },
      { name: 'register with empty password', url: '/users/register', body: { ...registerBody, password: '' }, field: 'password', message: 'Password is required' },
      { name: 'register with short password', url: '/users/register', body: { ...registerBody, password: 'seven77' }, field: 'password', message: 'Password must be at least 8 characters' },
      { name: 'register without first name', url: '/users/register', body: without(registerBody, 'firstName'), field: 'firstName', message: 'Name is required' },
      { name: 'register with blank first name', url: '/users/register', body: { ...registerBody, firstName: '   ' }, field: 'firstName', message: 'Name is required' },
      { name: 'register with short first name', url: '/users/register', body: { ...registerBody, firstName: 'J' }, field: 'firstName', message: 'Name must be at least 2 characters' },
      { name: 'register without last name', url: '/users/register', body: without(registerBody, 'lastName'), field: 'lastName', message: 'Name is required' },
      { name: 'register with short last name', url: '/users/register', body: { ...registerBody, lastName: 'D' }, field: 'lastName', message: 'Name must be at least 2 characters' },
      { name: 'login without email', url: '/users/login', body: { password: 'whatever-it-is' }, field: 'email', message: 'Email is required' },
      { name: 'login with bad email', url: '/users/login', body: { email: 'nobody', password: 'whatever-it-is' }, field: 'email', message: 'Invalid email format' },
      { name: 'login without password', url: '/users/login', body: { email: 'a@example.com' }, field: 'password', message: 'Password is required' },
      { name: 'login with empty password', url: '/users/login', body: { email: 'a@example.com', password: '' }, field: 'password', message: 'Password is required' },
      { name: 'verify without code', url: '/users/verify-otp', body: { email: 'a@example.com' }, field: 'otp', message: 'Please enter the complete 6-digit code' },
      { name: 'verify with 5 digits', url: '/users/verify-otp', body: { email: 'a@example.com', otp: '12345' }, field: 'otp', message: 'Please enter the complete 6-digit code' },
      { name: 'verify with 7 digits', url: '/users/verify-otp', body: { email: 'a@example.com', otp: '1234567' }, field: 'otp', message: 'Please enter the complete 6-digit code' },
      { name: 'verify with letters', url: '/users/verify-otp', body: { email: 'a@example.com', otp: 'abcdef' }, field: 'otp', message: 'Please enter the complete 6-digit code' },
      { name: 'verify without email', url: '/users/verify-otp', body: { otp: '123456' }, field: 'email', message: 'Email is required' },
      { name: 'resend with bad email', url: '/users/resend-otp', body: { email: 'nope' }, field: 'email', message: 'Invalid email format' },
      { name: 'forgot without email', url: '/users/forgot-password', body: {}, field: 'email', message: 'Email is required' },
      { name: 'forgot with bad email', url: '/users/forgot-password', body: { email: 'a@b' }, field: 'email', message: 'Invalid email format' },
      { name: 'reset without token', url: '/users/reset-password', body: { newPassword: 'long-enough-1' }, field: 'token', message: invalidResetLink },
      { name: 'reset without password', url: '/users/reset-password', body: { token: 'abc' }, field: 'newPassword', message: 'Password is required' },
      { name: 'reset with short password', url: '/users/reset-password', body: { token: 'abc', newPassword: 'short' }, field: 'newPassword', message: 'Password must be at least 8 characters' },
      { name: 'change without current', url: '/users/change-password', body: { newPassword: 'long-enough-1' }, field: 'currentPassword', message: 'Current password is required', auth: true },
      { name: 'change without new', url: '/users/change-password', body: { currentPassword: DEFAULT_PASSWORD }, field: 'newPassword', message: 'Password is required', auth: true },
      { name: 'change with short new', url: '/users/change-password', body: { currentPassword: DEFAULT_PASSWORD, newPassword: 'short' }, field: 'newPassword', message: 'Password must be at least 8 characters', auth: true },
      { name: 'profile with short name', url: '/users/profile', method: 'PATCH', body: { firstName: 'J' }, field: 'firstName', message: 'Name must be at least 2 characters', auth: true },
      { name: 'profile with bad email', url: '/users/profile', method: 'PATCH', body: { email: 'bad' }, field: 'email', message: 'Invalid email format', auth: true },
    ];

    it.each(cases)('$name → 400 "$message"', async ({ url, method = 'POST', body, field, message, auth }) => {
      const [{ n: before }] = (await rows<{ n: number }>(ctx, sql`select count(*)::int as n from users`)) as [{ n: number }];
      const response = await call(method, url, body, auth ? bearer(token) : {});
      expect(response.statusCode).toBe(400);
      const json = response.json();
      expect(json.code).toBe('VALIDATION_ERROR');
      expect(json.message).toBe(message);
      expect(json.fields[field]).toBe(message);
      const [{ n: after }] = (await rows<{ n: number }>(ctx, sql`select count(*)::int as n from users`)) as [{ n: number }];
      expect(after).toBe(before);
    });
  });

  describe('sign-in', () => {
    it('answers 400 "Invalid email or password" alike for an unknown address and a wrong password', async () => {
      const user = await createUser(ctx);
      const unknown = await post('/users/login', { email: uniqueEmail('ghost'), password: DEFAULT_PASSWORD });
      const wrong = await post('/users/login', { email: user.email, password: 'not-the-password' });
      for (const response of [unknown, wrong]) {
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual(invalidCredentials);
      }
      expect(wrong.body).toBe(unknown.body);
    });

    it('accepts the address in any case and with spaces, and records the login', async () => {
      const user = await createUser(ctx);
      const response = await post('/users/login', { email: `  ${user.email.toUpperCase()} `, password: DEFAULT_PASSWORD });
      expect(response.statusCode).toBe(200);
      expect(response.json().user.lastLogin).toBe(ctx.clock.now().toISOString());
    });

    it('logout ends that session only', async () => {
      const user = await createUser(ctx);
      const a = await loginAs(ctx, user.email);
      const b = await loginAs(ctx, user.email);
      const out = await post('/users/logout', undefined, bearer(a));
      expect(out.statusCode).toBe(200);
      expect((await profile(a)).json()).toEqual(sessionExpired);
      expect((await profile(a)).statusCode).toBe(401);
      expect((await profile(b)).statusCode).toBe(200);
      expect((await post('/users/logout', undefined, bearer(a))).statusCode).toBe(401);
    });

    it('refuses forged, malformed and missing tokens with 401', async () => {
      const user = await createUser(ctx);
      const token = await loginAs(ctx, user.email);
      const [sessionId] = token.split('.');
      const forged = `${sessionId}.${'A'.repeat(43)}`;
      for (const header of [{}, bearer(forged), bearer('garbage'), bearer(`${randomId()}.${'A'.repeat(43)}`), { authorization: token }]) {
        const response = await call('GET', '/users/profile', undefined, header);
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual(sessionExpired);
      }
    });

    it('ends a session unused for 12 hours, or for 7 days with remember-me; each use keeps it alive', async () => {
      const user = await createUser(ctx);
      const short = await loginAs(ctx, user.email, DEFAULT_PASSWORD, false);
      const long = await loginAs(ctx, user.email, DEFAULT_PASSWORD, true);

      // Used every 11 hours, the short session lives past its first 12 hours.
      for (let i = 0; i < 3; i += 1) {
        ctx.clock.advance(11 * HOUR);
        expect((await profile(short)).statusCode).toBe(200);
      }
      ctx.clock.advance(12 * HOUR + MINUTE);
      expect((await profile(short)).json()).toEqual(sessionExpired);

      // The remembered one, unused since sign-in 45 hours ago, lasts until 7 days of idleness.
      ctx.clock.advance(7 * 24 * HOUR - 46 * HOUR - MINUTE);
      expect((await profile(long)).statusCode).toBe(200);
      ctx.clock.advance(7 * 24 * HOUR - MINUTE);
      expect((await profile(long)).statusCode).toBe(200);
      ctx.clock.advance(7 * 24 * HOUR + MINUTE);
      expect((await profile(long)).statusCode).toBe(401);
    });

    it('ends an admin session after 30 minutes unused, whatever remember-me said', async () => {
      const admin = await createUser(ctx, { role: 'admin', email: uniqueEmail('admin') });
      const token = await loginAs(ctx, admin.email, DEFAULT_PASSWORD, true);
      const adminCall = () => call('GET', '/admin/users', undefined, bearer(token));
      ctx.clock.advance(29 * MINUTE);
      expect((await adminCall()).statusCode).toBe(200);
      ctx.clock.advance(29 * MINUTE);
      expect((await profile(token)).statusCode).toBe(200);
      ctx.clock.advance(30 * MINUTE + 1_000);
      const expired = await adminCall();
      expect(expired.statusCode).toBe(401);
      expect(expired.json()).toEqual(sessionExpired);
    });

    it('caps a session at 30 days however busy it is', async () => {
      const user = await createUser(ctx);
      const token = await loginAs(ctx, user.email, DEFAULT_PASSWORD, true);
      for (let day = 6; day < 30; day += 6) {
        ctx.clock.advance(6 * 24 * HOUR);
        expect((await profile(token)).statusCode).toBe(200);
      }
      ctx.clock.advance(6 * 24 * HOUR);
      expect((await profile(token)).statusCode).toBe(401);
    });
  });

  describe('password reset', () => {
    const forgot = (email: string, headers?: Record<string, string>) => post('/users/forgot-password', { email }, headers);

    it('answers alike for known and unknown addresses and mails a PUBLIC_URL link despite spoofed host headers', async () => {
      const known = await createUser(ctx);
      const unknown = uniqueEmail('ghost');
      const spoofed = { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' };
      const a = await forgot(known.email, spoofed);
      const b = await forgot(unknown, spoofed);
      expect(a.statusCode).toBe(200);
      expect(b.statusCode).toBe(200);
      expect(a.body).toBe(b.body);
      expect(a.json()).toEqual({ message: 'Password reset email sent successfully. Please check your email.' });

      const sent = await ctx.deliverMail();
      expect(sent.filter((m) => m.to === unknown)).toHaveLength(0);
      const mail = sent.filter((m) => m.to === known.email);
      expect(mail).toHaveLength(1);
      const link = mail[0]!.text.match(/https?:\/\/\S*reset-password\?token=\S+/)?.[0];
      expect(link).toBeDefined();
      expect(link!.startsWith(`${PUBLIC_URL}/reset-password?token=`)).toBe(true);
      expect(mail[0]!.html).toContain(`${PUBLIC_URL}/reset-password?token=`);
      expect(mail[0]!.text + mail[0]!.html).not.toContain('evil.example');
    });

    it('resets once, ends every session, and refuses a second use', async () => {
      const user = await createUser(ctx);
      const a = await loginAs(ctx, user.email);
      const b = await loginAs(ctx, user.email, DEFAULT_PASSWORD, false);
      await forgot(user.email);
      const token = resetTokenFrom(await ctx.deliverMail(), user.email);

      const reset = await post('/users/reset-password', { token, newPassword: 'a-brand-new-password' });
      expect(reset.statusCode).toBe(200);
      expect(reset.json()).toEqual({ message: 'Password reset successfully! Redirecting to login...' });

      for (const old of [a, b]) {
        const response = await profile(old);
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual(sessionExpired);
      }
      expect((await post('/users/login', { email: user.email, password: 'a-brand-new-password' })).statusCode).toBe(200);
      expect((await post('/users/login', { email: user.email, password: DEFAULT_PASSWORD })).json()).toEqual(invalidCredentials);

      const again = await post('/users/reset-password', { token, newPassword: 'yet-another-password' });
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual({ message: invalidResetLink, code: 'VALIDATION_ERROR', fields: { token: invalidResetLink } });
      expect((await post('/users/login', { email: user.email, password: 'a-brand-new-password' })).statusCode).toBe(200);

      const notice = (await ctx.deliverMail()).filter((m) => m.to === user.email);
      expect(notice.some((m) => /password was changed/i.test(m.subject))).toBe(true);
    });

    it('voids every other outstanding link once one is used', async () => {
      const user = await createUser(ctx);
      await forgot(user.email);
      const first = resetTokenFrom(await ctx.deliverMail(), user.email);
      await forgot(user.email);
      const second = resetTokenFrom(await ctx.deliverMail(), user.email);
      expect(second).not.toBe(first);
      expect((await post('/users/reset-password', { token: second, newPassword: 'a-brand-new-password' })).statusCode).toBe(200);
      expect((await post('/users/reset-password', { token: first, newPassword: 'another-new-password' })).statusCode).toBe(400);
    });

    it('lets a link expire after 30 minutes', async () => {
      const late = await createUser(ctx);
      const inTime = await createUser(ctx);
      await forgot(late.email);
      await forgot(inTime.email);
      const sent = await ctx.deliverMail();
      const lateToken = resetTokenFrom(sent, late.email);
      const inTimeToken = resetTokenFrom(sent, inTime.email);

      ctx.clock.advance(30 * MINUTE - 1_000);
      expect((await post('/users/reset-password', { token: inTimeToken, newPassword: 'a-brand-new-password' })).statusCode).toBe(200);

      ctx.clock.advance(2_000);
      const expired = await post('/users/reset-password', { token: lateToken, newPassword: 'a-brand-new-password' });
      expect(expired.statusCode).toBe(400);
      expect(expired.json().message).toBe(invalidResetLink);
      expect((await post('/users/login', { email: late.email, password: DEFAULT_PASSWORD })).statusCode).toBe(200);
    });

    it('refuses an invented token', async () => {
      const response = await post('/users/reset-password', { token: 'not-a-real-token', newPassword: 'a-brand-new-password' });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(invalidResetLink);
    });
  });

  describe('change password', () => {
    const change = (token: string, body: object) => post('/users/change-password', body, bearer(token));

    it('refuses a wrong current password and changes nothing', async () => {
      const user = await createUser(ctx);
      const token = await loginAs(ctx, user.email);
      const other = await loginAs(ctx, user.email);
      const response = await change(token, { currentPassword: 'not-the-password', newPassword: 'a-brand-new-password' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        message: 'Current password is incorrect',
        code: 'VALIDATION_ERROR',
        fields: { currentPassword: 'Current password is incorrect' },
      });
      expect((await profile(other)).statusCode).toBe(200);
      expect((await post('/users/login', { email: user.email, password: DEFAULT_PASSWORD })).statusCode).toBe(200);
    });

    it('changes the password, keeps the current session and ends every other one', async () => {
      const user = await createUser(ctx);
      const current = await loginAs(ctx, user.email);
      const other = await loginAs(ctx, user.email);
      const third = await loginAs(ctx, user.email, DEFAULT_PASSWORD, false);

      const response = await change(current, { currentPassword: DEFAULT_PASSWORD, newPassword: 'a-brand-new-password' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ message: 'Password changed successfully' });

      expect((await profile(current)).statusCode).toBe(200);
      expect((await profile(other)).json()).toEqual(sessionExpired);
      expect((await profile(third)).statusCode).toBe(401);
      expect((await post('/users/login', { email: user.email, password: 'a-brand-new-password' })).statusCode).toBe(200);
      expect((await post('/users/login', { email: user.email, password: DEFAULT_PASSWORD })).json()).toEqual(invalidCredentials);
    });

    it('refuses the same password as the new one', async () => {
      const user = await createUser(ctx);
      const token = await loginAs(ctx, user.email);
      const response = await change(token, { currentPassword: DEFAULT_PASSWORD, newPassword: DEFAULT_PASSWORD });
      expect(response.statusCode).toBe(400);
      expect(response.json().fields).toHaveProperty('newPassword');
    });
  });

  describe('own profile', () => {
    it('updates names and phone and accepts the same e-mail in any case', async () => {
      const user = await createUser(ctx, { phone: '+1 555 0100' });
      const token = await loginAs(ctx, user.email);
      const response = await call(
        'PATCH',
        '/users/profile',
        { firstName: 'Grace', lastName: 'Hopper', phone: '+44 20 7946 0000', email: user.email.toUpperCase() },
        bearer(token),
      );
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ firstName: 'Grace', lastName: 'Hopper', phone: '+44 20 7946 0000', email: user.email });
      expectNoSecrets(response.body);
      expect((await profile(token)).json()).toMatchObject({ firstName: 'Grace', lastName: 'Hopper', phone: '+44 20 7946 0000' });
    });

    it('refuses a different e-mail', async () => {
      const user = await createUser(ctx);
      const token = await loginAs(ctx, user.email);
      const response = await call('PATCH', '/users/profile', { firstName: 'Grace', email: uniqueEmail('other') }, bearer(token));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ message: 'Email cannot be changed', fields: { email: 'Email cannot be changed' } });
      const [row] = await ctx.database.db.select().from(users).where(eq(users.id, user.id));
      expect(row).toMatchObject({ email: user.email, firstName: 'Test' });
    });

    it('ignores role, balance, KYC, verification and id fields in the body (no mass assignment)', async () => {
      const user = await createUser(ctx);
      const token = await loginAs(ctx, user.email);
      const [before] = await rows(ctx, sql`select * from users where id = ${user.id}`);
      const response = await call(
        'PATCH',
        '/users/profile',
        {
          firstName: 'Eve',
          role: 'admin',
          balance: 1_000_000,
          kycStatus: 'approved',
          kycVerified: true,
          isEmailVerified: false,
          emailVerifiedAt: null,
          _id: randomId(),
          id: randomId(),
          passwordHash: 'x',
          password_hash: 'x',
          deletedAt: new Date().toISOString(),
          createdAt: '2000-01-01T00:00:00.000Z',
        },
        bearer(token),
      );
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ _id: user.id, firstName: 'Eve', role: 'user', kycStatus: 'not_started', kycVerified: false, isEmailVerified: true, balance: 0 });
      const [after] = await rows(ctx, sql`select * from users where id = ${user.id}`);
      expect(after).toEqual({ ...before, first_name: 'Eve', updated_at: after!.updated_at });
      // Still an ordinary member.
      expect((await call('GET', '/admin/users', undefined, bearer(token))).statusCode).toBe(403);
    });
  });

  describe('the password strength rule: zxcvbn score 0 or 1 is refused at sign-up, change and reset', () => {
    // The four, and single entries of the common lists (passwords, words, names).
    const weak = ['Password123!', 'Passw0rd!', 'Qwerty123456!', 'Iloveyou1!', 'password123', 'iloveyou', 'football', 'P@ssw0rd', 'qwertyuiop'];
    const reason = (password: string, person: { email?: string; firstName?: string; lastName?: string } = {}) =>
      passwordStrengthProblem(password, personalInputs(person));

    it.each(weak)('refuses "%s" at registration with zxcvbn\'s reason on the password field, creating nothing', async (password) => {
      const email = uniqueEmail('weak');
      const response = await post('/users/register', { firstName: 'Jane', lastName: 'Doe', email, password });
      expect(response.statusCode).toBe(400);
      const why = reason(password, { email, firstName: 'Jane', lastName: 'Doe' });
      expect(why).toEqual(expect.any(String));
      expect(response.json()).toEqual({ message: why, code: 'VALIDATION_ERROR', fields: { password: why } });
      expect(await rows(ctx, sql`select id from users where email = ${email}`)).toHaveLength(0);
    });

    it('says why in zxcvbn\'s own words', async () => {
      const response = await post('/users/register', { firstName: 'Jane', lastName: 'Doe', email: uniqueEmail('why'), password: 'Password123!' });
      expect(response.json().fields.password).toMatch(/^This is (similar to )?a commonly used password\. Add more words that are less common\./);
    });

    it('refuses a password that is only the member\'s own name or address', async () => {
      const email = uniqueEmail('selfish');
      const response = await post('/users/register', { firstName: 'Wilhelmina', lastName: 'Doe', email, password: 'Wilhelmina' });
      expect(response.statusCode).toBe(400);
      expect(response.json().fields).toEqual({ password: reason('Wilhelmina', { email, firstName: 'Wilhelmina', lastName: 'Doe' }) });
      const own = await post('/users/register', { firstName: 'Jane', lastName: 'Doe', email, password: email });
      expect(own.statusCode).toBe(400);
      expect(own.json().fields.password).toEqual(expect.any(String));
    });

    it.each(['Password123!', 'Passw0rd!', 'Qwerty123456!', 'Iloveyou1!'])('refuses "%s" at reset on newPassword, and leaves the link usable', async (password) => {
      const user = await createUser(ctx);
      await post('/users/forgot-password', { email: user.email });
      const token = resetTokenFrom(await ctx.deliverMail(), user.email);
      const refused = await post('/users/reset-password', { token, newPassword: password });
      expect(refused.statusCode).toBe(400);
      const why = reason(password, user);
      expect(refused.json()).toEqual({ message: why, code: 'VALIDATION_ERROR', fields: { newPassword: why } });
      expect((await post('/users/login', { email: user.email, password: DEFAULT_PASSWORD })).statusCode).toBe(200);
      expect((await post('/users/reset-password', { token, newPassword: 'Quiet-Lantern-47!' })).statusCode).toBe(200);
    });

    it('checks a reset against the owner\'s own names', async () => {
      const user = await createUser(ctx, { firstName: 'Bartholomew', lastName: 'Quist' });
      await post('/users/forgot-password', { email: user.email });
      const token = resetTokenFrom(await ctx.deliverMail(), user.email);
      // Strong for anyone else, but only the owner's own names.
      expect(reason('BartholomewQuist')).toBeUndefined();
      const refused = await post('/users/reset-password', { token, newPassword: 'BartholomewQuist' });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().fields.newPassword).toEqual(expect.any(String));
    });

    it.each(['Password123!', 'Passw0rd!', 'Qwerty123456!', 'Iloveyou1!'])('refuses "%s" at change on newPassword, and changes nothing', async (password) => {
      const user = await createUser(ctx);
      const token = await loginAs(ctx, user.email);
      const other = await loginAs(ctx, user.email);
      const refused = await post('/users/change-password', { currentPassword: DEFAULT_PASSWORD, newPassword: password }, bearer(token));
      expect(refused.statusCode).toBe(400);
      const why = reason(password, user);
      expect(refused.json()).toEqual({ message: why, code: 'VALIDATION_ERROR', fields: { newPassword: why } });
      expect((await profile(other)).statusCode).toBe(200);
      expect((await post('/users/login', { email: user.email, password: DEFAULT_PASSWORD })).statusCode).toBe(200);
    });

    it.each(['Tf-correct-horse-9', 'Quiet-Lantern-47!', 'correct horse battery'])('accepts "%s" at registration, change and reset', async (password) => {
      expect((await post('/users/register', { firstName: 'Jane', lastName: 'Doe', email: uniqueEmail('strong'), password })).statusCode).toBe(201);
      const user = await createUser(ctx, { password: 'Another-operator-pass-77' });
      const token = await loginAs(ctx, user.email, 'Another-operator-pass-77');
      expect((await post('/users/change-password', { currentPassword: 'Another-operator-pass-77', newPassword: password }, bearer(token))).statusCode).toBe(200);
      await post('/users/forgot-password', { email: user.email });
      const reset = resetTokenFrom(await ctx.deliverMail(), user.email);
      expect((await post('/users/reset-password', { token: reset, newPassword: `${password} again` })).statusCode).toBe(200);
    });

    it('leaves existing accounts alone: a weak password set before the rule still signs in', async () => {
      const user = await createUser(ctx, { password: 'Password123!' });
      const login = await post('/users/login', { email: user.email, password: 'Password123!' });
      expect(login.statusCode).toBe(200);
      expect(login.json().token).toEqual(expect.any(String));
    });
  });

  describe('no enumeration: the same answer, the same work and the same time for known and unknown addresses', () => {
    const RUNS = 9;
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    type Answer = { statusCode: number; body: string };

    /**
     * A second app on the same database whose every statement is recorded: what each request asks of the
     * database before it answers (the SQL text, in order; the values differ), with the argon2 calls it makes.
     */
    let recorded: App;
    const statements: string[] = [];
    beforeAll(async () => {
      const client = (ctx.database.db as unknown as { $client: PGlite & pg.Pool }).$client;
      const logger = { logQuery: (query: string) => void statements.push(query) };
      const db = (ctx.database.kind === 'pglite' ? drizzlePglite({ client, schema, logger }) : drizzleNodePg({ client, schema, logger })) as unknown as Database;
      recorded = await buildApp({ config: testConfig({ publicUrl: PUBLIC_URL }), db, clock: ctx.clock, logger: pino({ level: 'silent' }), storage: memoryStorage() });
    });
    afterAll(() => recorded.close());
    const send = (url: string, payload: object) => recorded.inject({ method: 'POST', url: `/api${url}`, payload });

    /** Alternates the two kinds of request, so a slow moment of the machine falls on both alike. */
    async function compare(known: () => Promise<Answer>, unknown: () => Promise<Answer>) {
      const times = { known: [] as number[], unknown: [] as number[] };
      const bodies = { known: new Set<string>(), unknown: new Set<string>() };
      const work = { known: new Set<string>(), unknown: new Set<string>() };
      // One of each first, unmeasured: the first call pays for loading things (the password lists).
      await known();
      await unknown();
      await ctx.deliverMail();
      for (let i = 0; i < RUNS; i += 1) {
        for (const kind of ['known', 'unknown'] as const) {
          statements.length = 0;
          argon2Calls.length = 0;
          const started = performance.now();
          const response = await (kind === 'known' ? known() : unknown());
          times[kind].push(performance.now() - started);
          bodies[kind].add(`${response.statusCode} ${response.body}`);
          work[kind].add(JSON.stringify({ argon2: argon2Calls, statements }));
        }
        await ctx.deliverMail();
      }
      expect([...bodies.known]).toEqual([...bodies.unknown]);
      expect(bodies.known.size).toBe(1);
      // The same statements in the same order, and the same argon2 work, whatever the address.
      expect([...work.known]).toEqual([...work.unknown]);
      expect(work.known.size).toBe(1);
      // Within 30 ms, or a quarter of the slower median when an argon2 hash is part of the answer (about 40 ms on a
      // quiet machine, over 100 on a loaded one, where its noise alone exceeds 30 ms): a hash skipped or added on
      // one path doubles or halves its time, far past either bound. The statements above are the exact check.
      const [a, b] = [median(times.known), median(times.unknown)];
      expect(Math.abs(a - b)).toBeLessThan(Math.max(30, 0.25 * Math.max(a, b)));
      return JSON.parse([...work.known][0]!) as { argon2: string[]; statements: string[] };
    }
    /** Each answered only once its change committed: the mail rows are there at the answer. */
    const pendingMailTo = async (email: string) =>
      rows(ctx, sql`select template from mail_outbox where recipient = ${email} and status = 'pending'`);

    const registerAs = async (email: string): Promise<Answer> => {
      const response = await send('/users/register', { firstName: 'Jane', lastName: 'Doe', email, password: 'Tf-correct-horse-9' });
      return { statusCode: response.statusCode, body: response.body.replace(email, '<email>') };
    };

    it('register: a verified address and a new one', async () => {
      const owners = await Promise.all(Array.from({ length: RUNS + 1 }, () => createUser(ctx)));
      let i = 0;
      let fresh = '';
      const work = await compare(
        () => registerAs(owners[i++]!.email),
        () => registerAs((fresh = uniqueEmail('new'))),
      );
      // One password hash per sign-up, whatever the address; the row and the mail in one transaction.
      expect(work.argon2).toEqual(['hash']);
      expect(work.statements.filter((q) => /^insert into "?mail_outbox/i.test(q.trim()))).toHaveLength(2);
      expect(await rows(ctx, sql`select id from users where email = ${fresh}`)).toHaveLength(1);
    });

    it('register: an address registered but not verified and a new one', async () => {
      const pending = await Promise.all(Array.from({ length: RUNS + 1 }, () => createUser(ctx, { emailVerifiedAt: null })));
      let i = 0;
      await compare(
        () => registerAs(pending[i++]!.email),
        () => registerAs(uniqueEmail('new')),
      );
    });

    it('resend-otp: an unverified address and an unknown one', async () => {
      const pending = await Promise.all(Array.from({ length: RUNS + 1 }, () => createUser(ctx, { emailVerifiedAt: null })));
      let i = 0;
      let j = 0;
      const work = await compare(
        () => send('/users/resend-otp', { email: pending[i++]!.email }),
        () => send('/users/resend-otp', { email: uniqueEmail(`ghost${j++}`) }),
      );
      expect(work.argon2).toEqual([]);
      const last = pending[i - 1]!.email;
      ctx.clock.advance(61_000);
      expect((await send('/users/resend-otp', { email: last })).statusCode).toBe(200);
      expect(await pendingMailTo(last)).toEqual([{ template: 'verificationCode' }]);
    });

    it('forgot-password: a known address and an unknown one', async () => {
      const known = await Promise.all(Array.from({ length: RUNS + 1 }, () => createUser(ctx)));
      let i = 0;
      await compare(
        () => send('/users/forgot-password', { email: known[i++]!.email }),
        () => send('/users/forgot-password', { email: uniqueEmail('ghost') }),
      );
      const one = await createUser(ctx);
      expect((await send('/users/forgot-password', { email: one.email })).statusCode).toBe(200);
      expect(await pendingMailTo(one.email)).toEqual([{ template: 'passwordReset' }]);
      expect(await rows(ctx, sql`select id from password_reset_tokens where user_id = ${one.id}`)).toHaveLength(1);
    });
  });

  describe('secrets at rest', () => {
    it('stores passwords as argon2id and codes, reset tokens and session tokens only as hashes', async () => {
      const user = await registerWithCode({ password: 'plain-text-password-42' });
      const [row] = await rows<{ id: string; password_hash: string }>(
        ctx,
        sql`select id, password_hash from users where email = ${user.email}`,
      );
      // PHC string: $argon2id$v=19$<params>$salt$hash; the library orders the parameters its own way.
      const [, algorithm, version, params] = row!.password_hash.split('$');
      expect(algorithm).toBe('argon2id');
      expect(version).toBe('v=19');
      expect(Object.fromEntries(params!.split(',').map((p) => p.split('=')))).toEqual({ m: '19456', t: '2', p: '1' });
      expect(row!.password_hash).not.toContain('plain-text-password-42');

      const codes = await rows<{ code_hash: string }>(ctx, sql`select code_hash from email_codes where user_id = ${row!.id}`);
      expect(codes).toHaveLength(1);
      expect(codes[0]!.code_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(codes[0]!.code_hash).not.toContain(user.code);

      const verified = await verify(user.email, user.code);
      const token: string = verified.json().token;
      const secret = token.split('.')[1]!;
      const sessionRows = await rows<{ token_hash: string }>(ctx, sql`select token_hash from sessions where user_id = ${row!.id}`);
      expect(sessionRows).toHaveLength(1);
      expect(sessionRows[0]!.token_hash).not.toContain(secret);
      expect(sessionRows[0]!.token_hash).not.toContain(token);

      await post('/users/forgot-password', { email: user.email });
      const resetToken = resetTokenFrom(await ctx.deliverMail(), user.email);
      const tokens = await rows<{ token_hash: string }>(
        ctx,
        sql`select token_hash from password_reset_tokens where user_id = ${row!.id}`,
      );
      expect(tokens).toHaveLength(1);
      expect(tokens[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(tokens[0]!.token_hash).not.toContain(resetToken);
    });
  });
});

describe('auth rate limits', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({
      config: {
        rateLimits: testRateLimits({
          // Failed sign-ins at their real limits: these tests are about the numbers.
          loginFailuresPerPair: defaultRateLimits.loginFailuresPerPair,
          loginFailuresPerAccount: defaultRateLimits.loginFailuresPerAccount,
          forgotPerAccount: { limit: 2, windowSeconds: 900 },
          register: { limit: 2, windowSeconds: 3600 },
        }),
      },
    });
  });
  afterAll(() => ctx.close());

  const post = (url: string, payload: object, remoteAddress: string, headers: Record<string, string> = {}) =>
    ctx.app.inject({ method: 'POST', url: `/api${url}`, payload, remoteAddress, headers });
  const login = (email: string, password: string, remoteAddress: string) => post('/users/login', { email, password }, remoteAddress);

  it('has an account-wide lockout only far above the per-address one, at 100 failures at most (NIST SP 800-63B)', () => {
    const { loginFailuresPerPair: pair, loginFailuresPerAccount: account } = defaultRateLimits;
    expect(account.limit).toBeLessThanOrEqual(100);
    expect(account.limit).toBeGreaterThanOrEqual(5 * pair.limit);
    expect(pair.limit).toBeLessThanOrEqual(10);
  });

  it('15 wrong passwords from one address lock that address out of the account, not the owner at another', async () => {
    const user = await createUser(ctx);
    const statuses: number[] = [];
    for (let i = 0; i < 15; i += 1) statuses.push((await login(user.email, 'not-the-password', '10.0.0.1')).statusCode);
    expect(statuses).toEqual([...Array<number>(10).fill(400), ...Array<number>(5).fill(429)]);

    const fromAttacker = await login(user.email, DEFAULT_PASSWORD, '10.0.0.1');
    expect(fromAttacker.statusCode).toBe(429);
    expect(fromAttacker.json()).toMatchObject({ code: 'RATE_LIMITED', retryAfter: expect.any(Number) });
    expect(fromAttacker.json().retryAfter).toBeLessThanOrEqual(900);
    expect(fromAttacker.headers['retry-after']).toBe(String(fromAttacker.json().retryAfter));

    const fromOwner = await login(user.email, DEFAULT_PASSWORD, '192.0.2.44');
    expect(fromOwner.statusCode).toBe(200);
    expect(fromOwner.json()).toMatchObject({ token: expect.any(String) });

    ctx.clock.advance(901_000);
    expect((await login(user.email, DEFAULT_PASSWORD, '10.0.0.1')).statusCode).toBe(200);
  });

  it('locks the account everywhere only after 100 failures spread over many addresses', async () => {
    const user = await createUser(ctx);
    const limit = defaultRateLimits.loginFailuresPerAccount.limit;
    for (let i = 0; i < limit; i += 1) {
      const response = await login(user.email, 'not-the-password', `10.1.${Math.floor(i / 250)}.${(i % 250) + 1}`);
      expect(response.statusCode).toBe(400);
    }
    const locked = await login(user.email, DEFAULT_PASSWORD, '192.0.2.45');
    expect(locked.statusCode).toBe(429);
    ctx.clock.advance(defaultRateLimits.loginFailuresPerAccount.windowSeconds * 1000 + 1_000);
    expect((await login(user.email, DEFAULT_PASSWORD, '192.0.2.45')).statusCode).toBe(200);
  });

  it('a successful password reset clears the account\'s failures', async () => {
    const user = await createUser(ctx);
    for (let i = 0; i < 10; i += 1) await login(user.email, 'not-the-password', '10.4.0.1');
    for (let i = 0; i < 20; i += 1) await login(user.email, 'not-the-password', `10.4.1.${i + 1}`);
    expect((await login(user.email, DEFAULT_PASSWORD, '10.4.0.1')).statusCode).toBe(429);

    await post('/users/forgot-password', { email: user.email }, '10.4.0.1');
    const token = resetTokenFrom(await ctx.deliverMail(), user.email);
    expect((await post('/users/reset-password', { token, newPassword: 'Tf-correct-horse-9' }, '10.4.0.1')).statusCode).toBe(200);
    expect((await login(user.email, 'Tf-correct-horse-9', '10.4.0.1')).statusCode).toBe(200);
  });

  it('counts unknown addresses exactly like known ones', async () => {
    const known = await createUser(ctx);
    const unknown = uniqueEmail('ghost');
    for (const email of [known.email, unknown]) {
      const statuses: number[] = [];
      for (let i = 0; i < 11; i += 1) statuses.push((await login(email, 'not-the-password', '10.5.0.1')).statusCode);
      expect(statuses).toEqual([...Array<number>(10).fill(400), 429]);
    }
  });

  it('limits reset mails per account, for unknown addresses too', async () => {
    const known = await createUser(ctx);
    for (const email of [known.email, uniqueEmail('ghost')]) {
      expect((await post('/users/forgot-password', { email }, '10.2.0.1')).statusCode).toBe(200);
      expect((await post('/users/forgot-password', { email }, '10.2.0.2')).statusCode).toBe(200);
      const limited = await post('/users/forgot-password', { email }, '10.2.0.3');
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED', retryAfter: expect.any(Number) });
    }
    const sent = (await ctx.deliverMail()).filter((m) => m.to === known.email);
    expect(sent).toHaveLength(2);
  });

  it('limits registrations per address, forged X-Forwarded-For or not', async () => {
    const body = () => ({ firstName: 'Jane', lastName: 'Doe', email: uniqueEmail('reg'), password: 'long-enough-1' });
    expect((await post('/users/register', body(), '10.3.0.1')).statusCode).toBe(201);
    expect((await post('/users/register', body(), '10.3.0.1', { 'x-forwarded-for': '203.0.113.1' })).statusCode).toBe(201);
    const third = body();
    const limited = await post('/users/register', third, '10.3.0.1', { 'x-forwarded-for': '203.0.113.2' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringMatching(/try again in \d+ seconds/) });
    expect(await rows(ctx, sql`select id from users where email = ${third.email}`)).toHaveLength(0);
  });

  it('applies the 60-second resend cooldown per address, account or not, with the same answers', async () => {
    const pending = await createUser(ctx, { emailVerifiedAt: null });
    const unknown = uniqueEmail('ghost');
    const answers = [];
    for (const email of [pending.email, unknown]) {
      const first = await post('/users/resend-otp', { email }, '10.6.0.1');
      ctx.clock.advance(15_000);
      const second = await post('/users/resend-otp', { email }, '10.6.0.2');
      answers.push({ first: [first.statusCode, first.body], second: [second.statusCode, second.json(), second.headers['retry-after']] });
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]!.first[0]).toBe(200);
    expect(answers[0]!.second).toEqual([429, { message: messages.auth.resendCooldown(45), code: 'RATE_LIMITED', retryAfter: 45 }, '45']);
    expect((await ctx.deliverMail()).filter((m) => m.to === pending.email)).toHaveLength(1);
  });
});

describe('client addresses behind a proxy (TRUST_PROXY)', () => {
  const failures = { loginFailuresPerAddress: { limit: 3, windowSeconds: 900 } };
  const attempt = (ctx: TestContext, remoteAddress: string, forwardedFor?: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/users/login',
      payload: { email: uniqueEmail('ghost'), password: 'whatever-it-is' },
      remoteAddress,
      headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
    });

  it('without TRUST_PROXY counts the socket address, whatever X-Forwarded-For says', async () => {
    const ctx = await createTestApp({ config: { rateLimits: testRateLimits(failures) } });
    try {
      for (let i = 1; i <= 3; i += 1) expect((await attempt(ctx, '10.9.9.9', `203.0.113.${i}`)).statusCode).toBe(400);
      expect((await attempt(ctx, '10.9.9.9', '198.51.100.7')).statusCode).toBe(429);
      expect((await attempt(ctx, '10.9.9.10')).statusCode).toBe(400);
    } finally {
      await ctx.close();
    }
  });

  it('accepts TRUST_PROXY=true outside production, with a warning in the log', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
    const database = await createTestDatabase();
    const app = await buildApp({ config: testConfig({ trustProxy: true, env: 'development' }), db: database.db, logger, storage: memoryStorage() });
    await app.close();
    await database.close();
    const warnings = lines.map((line) => JSON.parse(line) as { level: number; msg: string }).filter((l) => l.level === 40);
    expect(warnings.map((w) => w.msg)).toEqual([expect.stringContaining('TRUST_PROXY=true')]);
  });

  it('with TRUST_PROXY=1 counts only the right-most hop, so a forged chain cannot pick the address', async () => {
    const ctx = await createTestApp({ config: { trustProxy: 1, rateLimits: testRateLimits(failures) } });
    try {
      // The proxy at 10.0.0.1 appends the client it saw (198.51.100.20); the client forged everything before it.
      for (let i = 1; i <= 3; i += 1) {
        expect((await attempt(ctx, '10.0.0.1', `203.0.113.${i}, 192.0.2.${i}, 198.51.100.20`)).statusCode).toBe(400);
      }
      const forged = await attempt(ctx, '10.0.0.1', '203.0.113.99, 198.51.100.20');
      expect(forged.statusCode).toBe(429);
      // Another client behind the same proxy is counted apart, and so is a chain whose last hop differs.
      expect((await attempt(ctx, '10.0.0.1', '198.51.100.21')).statusCode).toBe(400);
      expect((await attempt(ctx, '10.0.0.1', '198.51.100.20, 198.51.100.22')).statusCode).toBe(400);
    } finally {
      await ctx.close();
    }
  });
});

import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../db/schema';
import { codeFrom, createUser, DEFAULT_PASSWORD, resetTokenFrom, rows, uniqueEmail, useTestApp } from '../../../test/test-app';

/**
 * Single-use secrets under simultaneous requests. On PostgreSQL the requests really run at once on separate
 * connections (the test database pool has 20); PGlite runs them one after another but must agree.
 */
describe('auth under concurrent requests', () => {
  const ctx = useTestApp();

  const post = (url: string, payload: object) => ctx.app.inject({ method: 'POST', url: `/api${url}`, payload });
  const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

  async function registerWithCode() {
    const email = uniqueEmail('race');
    const response = await post('/users/register', { firstName: 'Race', lastName: 'Condition', email, password: 'long-enough-1' });
    expect(response.statusCode).toBe(201);
    const mail = (await ctx.deliverMail()).filter((m) => m.to === email);
    return { email, code: codeFrom(mail, email) };
  }

  it('20 simultaneous verify-otp with the right code: exactly one succeeds and one session exists', async () => {
    const { email, code } = await registerWithCode();
    const responses = await Promise.all(Array.from({ length: 20 }, () => post('/users/verify-otp', { email, otp: code })));
    const statuses = responses.map((r) => r.statusCode);
    expect(count(statuses, 200)).toBe(1);
    expect(count(statuses, 400)).toBe(19);

    const [user] = await ctx.database.db.select().from(users).where(eq(users.email, email));
    expect(user!.emailVerifiedAt).not.toBeNull();
    const sessions = await rows(ctx, sql`select id from sessions where user_id = ${user!.id}`);
    expect(sessions).toHaveLength(1);
  });

  it('20 simultaneous reset-password with one token: exactly one succeeds and the password changes once', async () => {
    const user = await createUser(ctx);
    await post('/users/forgot-password', { email: user.email });
    const token = resetTokenFrom(await ctx.deliverMail(), user.email);

    const passwords = Array.from({ length: 20 }, (_, i) => `new-password-number-${i}`);
    const responses = await Promise.all(passwords.map((newPassword) => post('/users/reset-password', { token, newPassword })));
    const statuses = responses.map((r) => r.statusCode);
    expect(count(statuses, 200)).toBe(1);
    expect(count(statuses, 400)).toBe(19);

    // The winner's password is the one stored; no loser overwrote it afterwards.
    const winner = passwords[statuses.indexOf(200)]!;
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.passwordHash).not.toBe(user.passwordHash);
    const login = await post('/users/login', { email: user.email, password: winner });
    expect(login.statusCode).toBe(200);
    expect((await post('/users/login', { email: user.email, password: DEFAULT_PASSWORD })).statusCode).toBe(400);
    const used = await rows(ctx, sql`select id from password_reset_tokens where user_id = ${user.id} and used_at is not null`);
    expect(used).toHaveLength(1);
    // One "password changed" notice, not twenty.
    const notices = (await ctx.deliverMail()).filter((m) => m.to === user.email && /password was changed/i.test(m.subject));
    expect(notices).toHaveLength(1);
  });

  it('10 simultaneous resend-otp after the cooldown: at most one new code is mailed', async () => {
    const { email } = await registerWithCode();
    ctx.clock.advance(61_000);

    const responses = await Promise.all(Array.from({ length: 10 }, () => post('/users/resend-otp', { email })));
    const statuses = responses.map((r) => r.statusCode);
    expect(count(statuses, 200)).toBe(1);
    expect(count(statuses, 429)).toBe(9);

    const mail = (await ctx.deliverMail()).filter((m) => m.to === email);
    expect(mail).toHaveLength(1);
    const [user] = await ctx.database.db.select().from(users).where(eq(users.email, email));
    const codes = await rows<{ consumed_at: Date | null }>(ctx, sql`select consumed_at from email_codes where user_id = ${user!.id}`);
    expect(codes).toHaveLength(2);
    expect(codes.filter((c) => c.consumed_at === null)).toHaveLength(1);
    // The one mailed code is the live one.
    expect((await post('/users/verify-otp', { email, otp: codeFrom(mail, email) })).statusCode).toBe(200);
  });
});

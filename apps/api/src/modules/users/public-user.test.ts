import { describe, expect, it } from 'vitest';
import { publicUserSchema } from '@terrafund/contracts';
import { bearer, codeFrom, createUser, DEFAULT_PASSWORD, loginAs, uniqueEmail, useTestApp } from '../../../test/test-app';

/** One user shape: every answer that carries a user sends the same fields under the same names. */
describe('the user object', () => {
  const ctx = useTestApp();

  const post = (url: string, payload: object) => ctx.app.inject({ method: 'POST', url, payload });
  const keys = (value: object) => Object.keys(value).sort();

  it('is the same in login, verify-otp, profile and the admin views', async () => {
    const email = uniqueEmail('shape');
    const registered = await post('/api/users/register', { firstName: 'Grace', lastName: 'Hopper', email, password: DEFAULT_PASSWORD });
    expect(registered.statusCode).toBe(201);
    await ctx.deliverMail();
    const verified = await post('/api/users/verify-otp', { email, otp: codeFrom(ctx.mail, email) });
    expect(verified.statusCode, verified.body).toBe(200);
    const fromCode = verified.json<{ token: string; user: Record<string, unknown> }>().user;

    const login = await post('/api/users/login', { email, password: DEFAULT_PASSWORD });
    expect(login.statusCode, login.body).toBe(200);
    const { token, user: fromLogin } = login.json<{ token: string; user: Record<string, unknown> }>();

    const profile = await ctx.app.inject({ method: 'GET', url: '/api/users/profile', headers: bearer(token) });
    const fromProfile = profile.json<Record<string, unknown>>();

    const expected = keys(publicUserSchema.shape);
    expect(keys(fromCode)).toEqual(expected);
    expect(keys(fromLogin)).toEqual(expected);
    expect(keys(fromProfile)).toEqual(expected);
    // The same values too, apart from the sign-in time that the login itself moved.
    const { lastLogin: _a, ...code } = fromCode;
    const { lastLogin: _b, ...signedIn } = fromLogin;
    const { lastLogin: _c, ...own } = fromProfile;
    expect(signedIn).toEqual(code);
    expect(own).toEqual(signedIn);
    expect(fromProfile.lastLogin).toBe(fromLogin.lastLogin);

    // The admin's views send that same object for the member.
    const admin = await createUser(ctx, { role: 'admin', email: uniqueEmail('admin') });
    const adminToken = await loginAs(ctx, admin.email);
    const list = await ctx.app.inject({ method: 'GET', url: `/api/admin/users?search=${encodeURIComponent(email)}`, headers: bearer(adminToken) });
    const [listed] = list.json<Record<string, unknown>[]>();
    expect(listed).toEqual(fromProfile);
    const detail = await ctx.app.inject({ method: 'GET', url: `/api/admin/users/${String(fromProfile._id)}`, headers: bearer(adminToken) });
    expect(detail.json<{ user: Record<string, unknown> }>().user).toEqual(fromProfile);
  });
});

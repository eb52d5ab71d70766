import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { messages } from '@terrafund/contracts';
import { users } from '../../db/schema';
import {
  apiCaller,
  createUser,
  DEFAULT_PASSWORD,
  loginAs,
  randomId,
  rows,
  uniqueEmail,
  useMemberAndAdmin,
  useTestApp,
} from '../../../test/test-app';

type ListedUser = { _id: string; email: string; firstName: string; lastName: string; role: string; kycStatus: string };

describe('admin user management', () => {
  const ctx = useTestApp();
  const people = useMemberAndAdmin(ctx);


  const call = apiCaller(() => ctx);
  const list = async (path: string, query: Record<string, string | number> = {}) => {
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
    const response = await call('GET', `${path}${qs ? `?${qs}` : ''}`, people.adminToken);
    expect(response.statusCode).toBe(200);
    return { users: response.json<ListedUser[]>(), total: Number(response.headers['x-total-count']), body: response.body };
  };
  const ids = (listed: ListedUser[]) => listed.map((u) => u._id).sort();

  describe.each(['/users', '/admin/users'])('GET %s', (path) => {
    it('pages 20 at a time with ?page= together with the search, so every member is reachable', async () => {
      const tag = `pager${path.replace(/\W/g, '')}${Date.now().toString(36)}`;
      const created = [];
      for (let i = 0; i < 45; i += 1) {
        // Older than everyone else, so the other tests' first pages are not pushed aside.
        created.push(await createUser(ctx, { email: uniqueEmail(tag), firstName: `Paged${i}`, createdAt: new Date(Date.UTC(2020, 0, 1, 0, 0, i)) }));
      }
      const pages = [];
      for (let page = 1; page <= 4; page += 1) pages.push(await list(path, { search: tag, page }));
      expect(pages.map((p) => p.users.length)).toEqual([20, 20, 5, 0]);
      for (const p of pages) expect(p.total).toBe(45);
      const seen = pages.flatMap((p) => p.users.map((u) => u._id));
      expect(new Set(seen).size).toBe(45);
      expect([...seen].sort()).toEqual(created.map((u) => u.id).sort());
      // Newest first.
      expect(pages[0]!.users[0]!._id).toBe(created.at(-1)!.id);
    });

    it('lists users without secrets and with X-Total-Count', async () => {
      const { users: listed, total, body } = await list(path);
      expect(listed.length).toBeGreaterThanOrEqual(2);
      expect(listed.length).toBe(Math.min(total, 20));
      expect(ids(listed)).toEqual(expect.arrayContaining([people.admin.id, people.member.id]));
      expect(body).not.toMatch(/passwordHash|password_hash|\$argon2/);
    });

    it('searches first name, last name and e-mail, case-insensitively', async () => {
      const tag = `zq${Math.random().toString(36).slice(2, 8)}`;
      const byFirst = await createUser(ctx, { firstName: `${tag}first` });
      const byLast = await createUser(ctx, { lastName: `Mc${tag}` });
      const byEmail = await createUser(ctx, { email: `${tag}.mail@example.com` });
      const found = await list(path, { search: tag.toUpperCase() });
      expect(ids(found.users)).toEqual([byFirst.id, byLast.id, byEmail.id].sort());
      expect(found.total).toBe(3);
      expect((await list(path, { search: `${tag}.mail@` })).users.map((u) => u._id)).toEqual([byEmail.id]);
    });

    it('treats % and _ in a search as the characters themselves', async () => {
      const tag = Math.random().toString(36).slice(2, 8);
      const percent = await createUser(ctx, { lastName: `Hundred%Club${tag}` });
      const underscore = await createUser(ctx, { firstName: `Under_score${tag}` });
      const everyone = (await list(path, { limit: 100 })).total;
      expect(everyone).toBeGreaterThan(2);

      const byPercent = await list(path, { search: '%' });
      expect(byPercent.users.every((u) => `${u.firstName}${u.lastName}${u.email}`.includes('%'))).toBe(true);
      expect(ids(byPercent.users)).toContain(percent.id);
      expect(byPercent.total).toBeLessThan(everyone);

      const byUnderscore = await list(path, { search: '_' });
      expect(byUnderscore.users.every((u) => `${u.firstName}${u.lastName}${u.email}`.includes('_'))).toBe(true);
      expect(ids(byUnderscore.users)).toContain(underscore.id);
      expect(byUnderscore.total).toBeLessThan(everyone);

      expect((await list(path, { search: `d%club${tag}` })).users.map((u) => u._id)).toEqual([percent.id]);
      expect((await list(path, { search: `hundred_club${tag}` })).users).toEqual([]);
      expect((await list(path, { search: '\\' })).users).toEqual([]);
    });

    it('filters by role and KYC status', async () => {
      const pending = await createUser(ctx, { kycStatus: 'pending' });
      const otherAdmin = await createUser(ctx, { role: 'admin' });
      const admins = await list(path, { role: 'admin' });
      expect(admins.users.every((u) => u.role === 'admin')).toBe(true);
      expect(ids(admins.users)).toEqual(expect.arrayContaining([people.admin.id, otherAdmin.id]));
      expect(ids(admins.users)).not.toContain(people.member.id);

      const pendingKyc = await list(path, { kycStatus: 'pending' });
      expect(pendingKyc.users.every((u) => u.kycStatus === 'pending')).toBe(true);
      expect(ids(pendingKyc.users)).toContain(pending.id);
      expect(ids(pendingKyc.users)).not.toContain(people.member.id);

      const both = await list(path, { role: 'admin', kycStatus: 'pending' });
      expect(ids(both.users)).not.toContain(pending.id);
      expect(ids(both.users)).not.toContain(otherAdmin.id);
    });

    it('pages newest first with page and limit', async () => {
      const tag = `pg${Math.random().toString(36).slice(2, 8)}`;
      const created = [];
      for (let i = 0; i < 5; i += 1) {
        ctx.clock.advance(1_000);
        created.push(await createUser(ctx, { lastName: `${tag}${i}` }));
      }
      const newestFirst = created.map((u) => u.id).reverse();
      const page1 = await list(path, { search: tag, limit: 2, page: 1 });
      const page2 = await list(path, { search: tag, limit: 2, page: 2 });
      const page3 = await list(path, { search: tag, limit: 2, page: 3 });
      const page4 = await list(path, { search: tag, limit: 2, page: 4 });
      expect([page1, page2, page3, page4].map((p) => p.total)).toEqual([5, 5, 5, 5]);
      expect(page1.users.map((u) => u._id)).toEqual(newestFirst.slice(0, 2));
      expect(page2.users.map((u) => u._id)).toEqual(newestFirst.slice(2, 4));
      expect(page3.users.map((u) => u._id)).toEqual(newestFirst.slice(4));
      expect(page4.users).toEqual([]);
    });

    it('refuses bad paging and filters with 400, never 500', async () => {
      for (const query of ['limit=0', 'limit=101', 'page=0', 'page=-1', 'page=abc', 'role=superuser', 'kycStatus=done', `search=${'x'.repeat(101)}`]) {
        const response = await call('GET', `${path}?${query}`, people.adminToken);
        expect(response.statusCode, query).toBe(400);
        expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.any(String) });
      }
    });

    it('is for admins only', async () => {
      expect((await call('GET', path)).statusCode).toBe(401);
      const forbidden = await call('GET', path, people.memberToken);
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.json().code).toBe('FORBIDDEN');
    });
  });

  describe('GET one user', () => {
    it('answers the user at /users/:id and {user, transactions} at /admin/users/:id', async () => {
      const one = await call('GET', `/users/${people.member.id}`, people.adminToken);
      expect(one.statusCode).toBe(200);
      expect(one.json()).toMatchObject({ _id: people.member.id, email: people.member.email, role: 'user' });
      expect(one.body).not.toMatch(/passwordHash|\$argon2/);

      const detail = await call('GET', `/admin/users/${people.member.id}`, people.adminToken);
      expect(detail.statusCode).toBe(200);
      expect(detail.json()).toMatchObject({ user: one.json(), transactions: [] });
    });

    it('answers 404, never 500, for malformed and unknown ids', async () => {
      const badIds = [
        randomId(),
        'not-a-uuid',
        '123',
        "1' or '1'='1",
        '%00',
        '%F0%9F%92%A9',
        '%E0%A4%A',
        `${people.member.id}x`,
        people.member.id.replace(/-/g, ''),
        'a'.repeat(200),
        'a'.repeat(300),
      ];
      for (const id of badIds) {
        const encoded = id.startsWith('%') ? id : encodeURIComponent(id);
        for (const [method, url] of [
          ['GET', `/users/${encoded}`],
          ['GET', `/admin/users/${encoded}`],
          ['PATCH', `/users/${encoded}`],
          ['DELETE', `/users/${encoded}`],
        ] as const) {
          const response = await call(method, url, people.adminToken, method === 'PATCH' ? { firstName: 'Nobody' } : undefined);
          expect(response.statusCode, `${method} ${url}`).toBe(404);
          expect(response.json()).toMatchObject({ code: 'NOT_FOUND', message: expect.any(String) });
          // Router-level refusals skip the hooks; they must still carry the security headers.
          expect(response.headers['content-security-policy'], `${method} ${url}`).toContain("frame-ancestors 'none'");
          expect(response.headers['x-content-type-options']).toBe('nosniff');
        }
      }
    });

    it('is for admins only', async () => {
      for (const url of [`/users/${people.member.id}`, `/admin/users/${people.member.id}`]) {
        expect((await call('GET', url)).statusCode).toBe(401);
        expect((await call('GET', url, people.memberToken)).statusCode).toBe(403);
      }
    });
  });

  describe('PATCH /users/:id', () => {
    it('changes names and phone, and demotes an admin', async () => {
      const target = await createUser(ctx, { role: 'admin', email: uniqueEmail('admin') });
      const response = await call('PATCH', `/users/${target.id}`, people.adminToken, {
        firstName: 'Renamed',
        lastName: 'Person',
        phone: '+1 (201) 555-0199',
        role: 'user',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ _id: target.id, firstName: 'Renamed', lastName: 'Person', phone: '+1 (201) 555-0199', role: 'user' });
      const [row] = await ctx.database.db.select().from(users).where(eq(users.id, target.id));
      expect(row).toMatchObject({ firstName: 'Renamed', lastName: 'Person', phone: '+1 (201) 555-0199', role: 'user' });
    });

    it('refuses to make a member admin (that is the operator\'s CLI), and changes nothing', async () => {
      const target = await createUser(ctx);
      const token = await loginAs(ctx, target.email);
      const [before] = await rows(ctx, sql`select * from users where id = ${target.id}`);
      const response = await call('PATCH', `/users/${target.id}`, people.adminToken, { firstName: 'Promoted', role: 'admin' });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ message: messages.users.promoteWithCli, code: 'FORBIDDEN' });
      expect(response.json().message).toContain('npm run admin -- --promote');
      expect(await rows(ctx, sql`select * from users where id = ${target.id}`)).toEqual([before]);
      // The member's own session never gains admin rights.
      expect((await call('GET', '/admin/users', token)).statusCode).toBe(403);
    });

    it('applies a demotion to sessions already open', async () => {
      const target = await createUser(ctx, { role: 'admin', email: uniqueEmail('admin') });
      const token = await loginAs(ctx, target.email);
      expect((await call('GET', '/admin/users', token)).statusCode).toBe(200);
      await call('PATCH', `/users/${target.id}`, people.adminToken, { role: 'user' });
      expect((await call('GET', '/admin/users', token)).statusCode).toBe(403);
    });

    it('ignores KYC, balance, e-mail, verification and password fields in the body', async () => {
      const target = await createUser(ctx);
      const [before] = await rows(ctx, sql`select * from users where id = ${target.id}`);
      const response = await call('PATCH', `/users/${target.id}`, people.adminToken, {
        lastName: 'Changed',
        kycStatus: 'approved',
        kycVerified: true,
        balance: 5000,
        email: uniqueEmail('hijack'),
        isEmailVerified: false,
        emailVerifiedAt: null,
        password: 'hijacked-password',
        passwordHash: 'x',
        _id: randomId(),
        deletedAt: new Date().toISOString(),
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ lastName: 'Changed', kycStatus: 'not_started', kycVerified: false, balance: 0, email: target.email });
      const [after] = await rows(ctx, sql`select * from users where id = ${target.id}`);
      expect(after).toEqual({ ...before, last_name: 'Changed', updated_at: after!.updated_at });
      expect((await ctx.app.inject({ method: 'POST', url: '/api/users/login', payload: { email: target.email, password: DEFAULT_PASSWORD } })).statusCode).toBe(200);
    });

    it('refuses an admin changing their own role with 409, but lets them rename themselves', async () => {
      const refused = await call('PATCH', `/users/${people.admin.id}`, people.adminToken, { role: 'user' });
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'CONFLICT', message: 'You cannot change your own role' });
      const [row] = await ctx.database.db.select().from(users).where(eq(users.id, people.admin.id));
      expect(row!.role).toBe('admin');

      const renamed = await call('PATCH', `/users/${people.admin.id}`, people.adminToken, { firstName: 'Adelaide', role: 'admin' });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json()).toMatchObject({ firstName: 'Adelaide', role: 'admin' });
    });

    it('validates the fields it accepts', async () => {
      const target = await createUser(ctx);
      for (const body of [{ firstName: 'J' }, { role: 'superuser' }, { phone: 'call me' }, { lastName: 42 }]) {
        const response = await call('PATCH', `/users/${target.id}`, people.adminToken, body);
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
        expect(response.json().code).toBe('VALIDATION_ERROR');
      }
    });

    it('is for admins only', async () => {
      expect((await call('PATCH', `/users/${people.member.id}`, undefined, { role: 'admin' })).statusCode).toBe(401);
      expect((await call('PATCH', `/users/${people.member.id}`, people.memberToken, { role: 'admin' })).statusCode).toBe(403);
      const [row] = await ctx.database.db.select().from(users).where(eq(users.id, people.member.id));
      expect(row!.role).toBe('user');
    });
  });

  describe('DELETE /users/:id', () => {
    it('soft-deletes: sessions end, login fails, the user leaves every list, the row stays', async () => {
      const target = await createUser(ctx, { lastName: 'Leaving' });
      const token = await loginAs(ctx, target.email);
      const other = await loginAs(ctx, target.email, DEFAULT_PASSWORD, false);
      expect(ids((await list('/users', { search: 'Leaving', limit: 100 })).users)).toContain(target.id);

      const response = await call('DELETE', `/users/${target.id}`, people.adminToken);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ message: expect.any(String) });

      for (const t of [token, other]) {
        const profile = await call('GET', '/users/profile', t);
        expect(profile.statusCode).toBe(401);
        expect(profile.json()).toEqual({ message: 'Session expired. Please login again.', code: 'UNAUTHENTICATED' });
      }
      const login = await ctx.app.inject({ method: 'POST', url: '/api/users/login', payload: { email: target.email, password: DEFAULT_PASSWORD } });
      expect(login.statusCode).toBe(400);
      expect(login.json()).toEqual({ message: 'Invalid email or password', code: 'INVALID_CREDENTIALS' });

      expect(ids((await list('/users', { search: 'Leaving', limit: 100 })).users)).not.toContain(target.id);
      expect((await list('/admin/users', { search: target.email })).users).toEqual([]);
      expect((await call('GET', `/users/${target.id}`, people.adminToken)).statusCode).toBe(404);
      expect((await call('GET', `/admin/users/${target.id}`, people.adminToken)).statusCode).toBe(404);
      expect((await call('PATCH', `/users/${target.id}`, people.adminToken, { firstName: 'Back' })).statusCode).toBe(404);
      expect((await call('DELETE', `/users/${target.id}`, people.adminToken)).statusCode).toBe(404);

      const [row] = await ctx.database.db.select().from(users).where(eq(users.id, target.id));
      expect(row!.deletedAt).not.toBeNull();
      const live = await rows(ctx, sql`select id from sessions where user_id = ${target.id} and revoked_at is null`);
      expect(live).toEqual([]);
    });

    it('refuses deleting yourself with 409', async () => {
      const response = await call('DELETE', `/users/${people.admin.id}`, people.adminToken);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ code: 'CONFLICT', message: 'You cannot delete your own account' });
      expect((await call('GET', '/users/profile', people.adminToken)).statusCode).toBe(200);
    });

    it('is for admins only', async () => {
      const target = await createUser(ctx);
      expect((await call('DELETE', `/users/${target.id}`)).statusCode).toBe(401);
      expect((await call('DELETE', `/users/${target.id}`, people.memberToken)).statusCode).toBe(403);
      const [row] = await ctx.database.db.select().from(users).where(eq(users.id, target.id));
      expect(row!.deletedAt).toBeNull();
    });
  });
});

import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema';
import { bearer, createUser, DEFAULT_PASSWORD, loginAs, resetTokenFrom, rows, useMemberAndAdmin, useTestApp } from '../../../test/test-app';
import { createProject } from '../../../test/project-fixtures';

type Row = { id: string; at: string; actorEmail: string | null; action: string; targetType: string; targetId: string; details: unknown };

describe('GET /api/admin/audit', () => {
  const ctx = useTestApp();
  const people = useMemberAndAdmin(ctx);
  const audit = (query: string, token = people.adminToken) => ctx.app.inject({ method: 'GET', url: `/api/admin/audit${query}`, headers: bearer(token) });


  it('is for admins only (401, 403)', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/admin/audit' })).statusCode).toBe(401);
    expect((await audit('', people.memberToken)).statusCode).toBe(403);
  });

  it('records member security actions and admin decisions under their names', async () => {
    const other = await createUser(ctx);
    const otherToken = await loginAs(ctx, other.email);
    const changed = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/change-password',
      headers: bearer(otherToken),
      payload: { currentPassword: DEFAULT_PASSWORD, newPassword: 'a quite different passphrase' },
    });
    expect(changed.statusCode).toBe(200);
    await ctx.app.inject({ method: 'POST', url: '/api/users/forgot-password', payload: { email: other.email } });
    await ctx.deliverMail();
    const reset = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/reset-password',
      payload: { token: resetTokenFrom(ctx.mail, other.email), newPassword: 'yet another passphrase here' },
    });
    expect(reset.statusCode).toBe(200);
    const project = await createProject(ctx, people.adminToken);
    await ctx.app.inject({ method: 'PATCH', url: `/api/projects/${project._id}`, headers: bearer(people.adminToken), payload: { title: 'Renamed' } });
    await ctx.app.inject({ method: 'DELETE', url: `/api/projects/${project._id}`, headers: bearer(people.adminToken) });

    const rows = (await audit('?limit=100')).json<Row[]>();
    const actions = rows.map((r) => r.action);
    for (const name of ['password.changed', 'password.reset', 'project.created', 'project.updated', 'project.deleted']) {
      expect(actions).toContain(name);
    }
    const passwordChanged = rows.find((r) => r.action === 'password.changed')!;
    expect(passwordChanged).toMatchObject({ actorEmail: other.email, targetType: 'user', targetId: other.id });
    expect(rows.find((r) => r.action === 'project.created')).toMatchObject({ actorEmail: people.admin.email, targetType: 'project', targetId: project._id });
    expect(Object.keys(passwordChanged).sort()).toEqual(['action', 'actorEmail', 'at', 'details', 'id', 'targetId', 'targetType']);
  });

  it('pages newest first with X-Next-Cursor, absent on the last page; a forged cursor is a 400', async () => {
    const base = new Date('2020-03-01T12:00:00.000Z').getTime();
    // 7 rows in the same microsecond and 5 spread over days: the cursor must neither skip nor repeat.
    await ctx.database.db.insert(auditLog).values([
      ...Array.from({ length: 7 }, () => ({ actorId: people.member.id, action: 'test.same', targetType: 'user', targetId: people.member.id, createdAt: new Date(base) })),
      ...Array.from({ length: 5 }, (_, i) => ({
        actorId: people.admin.id,
        action: 'test.spread',
        targetType: 'user',
        targetId: people.member.id,
        before: { n: i },
        createdAt: new Date(base - (i + 1) * 86_400_000),
      })),
    ]);
    const seen: Row[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const response = await audit(`?from=2020-02-01&to=2020-03-31&limit=5${cursor ? `&cursor=${cursor}` : ''}`);
      expect(response.statusCode).toBe(200);
      seen.push(...response.json<Row[]>());
      cursor = response.headers['x-next-cursor'] as string | undefined;
      pages += 1;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(12);
    expect(new Set(seen.map((r) => r.id)).size).toBe(12);
    const times = seen.map((r) => r.at);
    expect([...times].sort().reverse()).toEqual(times);

    const defaultPage = await audit('');
    expect(defaultPage.json<Row[]>().length).toBeLessThanOrEqual(50);
    for (const query of ['?cursor=forged', '?cursor=MjAyMC0xMy0wMVQwMDowMDowMC4wMDAwMDBafHg', '?limit=0', '?limit=101', '?from=2020-02-30', '?from=2020-03-02&to=2020-03-01', '?action=DROP%20TABLE']) {
      const bad = await audit(query);
      expect(bad.statusCode, query).toBe(400);
    }
  });

  it('filters by actor, action and dates, combined', async () => {
    const byAction = (await audit('?action=test.spread')).json<Row[]>();
    expect(byAction).toHaveLength(5);
    expect(byAction.every((r) => r.action === 'test.spread' && r.actorEmail === people.admin.email)).toBe(true);
    expect((await audit(`?actor=${encodeURIComponent(people.member.email)}&action=test.same`)).json()).toHaveLength(7);
    expect((await audit(`?actor=${encodeURIComponent(people.member.email)}&action=test.spread`)).json()).toHaveLength(0);
    expect((await audit(`?actor=${encodeURIComponent(people.admin.email.toUpperCase())}&action=test.spread`)).json()).toHaveLength(5);
    // 2020-02-26 and 2020-02-27, both days included.
    const days = (await audit('?action=test.spread&from=2020-02-26&to=2020-02-27')).json<Row[]>();
    expect(days.map((r) => r.at)).toEqual(['2020-02-27T12:00:00.000Z', '2020-02-26T12:00:00.000Z']);
  });

  it('downloads the same rows as CSV, neutralising formulas', async () => {
    await ctx.database.db.insert(auditLog).values({
      actorId: people.admin.id,
      action: 'test.csv',
      targetType: 'user',
      targetId: people.member.id,
      before: null,
      after: { note: '=HYPERLINK("http://evil")' },
      createdAt: new Date('2019-01-01T00:00:00Z'),
    });
    const json = (await audit('?action=test.spread&limit=3')).json<Row[]>();
    const csv = await audit('?action=test.spread&limit=3&format=csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toMatch(/^attachment/);
    expect(csv.headers['x-next-cursor']).toBeDefined();
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('At,Actor,Action,Target type,Target id,Details');
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(json.map((r) => r.at));

    const formula = await audit('?action=test.csv&format=csv');
    const row = formula.body.trim().split('\r\n')[1]!;
    expect(row).toContain('{""before"":null');
    // The whole details cell is JSON, so it starts with "{"; an actor or action cell starting with = is neutralised.
    await ctx.database.db.insert(auditLog).values({
      actorId: people.admin.id,
      action: '=cmd',
      targetType: 'user',
      targetId: people.member.id,
      createdAt: new Date('2019-01-01T00:00:00Z'),
    });
    const all = await audit('?from=2019-01-01&to=2019-01-01&format=csv');
    expect(all.body).toContain(",'=cmd,");
  });
});

/**
 * The audit log is append-only in the database itself (migration 0015_audit_log_append_only): a trigger
 * refuses every UPDATE, DELETE and TRUNCATE, whoever sends it, and there is no setting to turn it off. A
 * migration that must change the table drops and recreates the trigger inside its own transaction.
 */
describe('audit_log is append-only in the database', () => {
  const ctx = useTestApp();
  const people = useMemberAndAdmin(ctx);

  const recorded = async () => {
    const target = await createUser(ctx);
    const [row] = await ctx.database.db
      .insert(auditLog)
      .values({ actorId: people.admin.id, action: 'user.updated', targetType: 'user', targetId: target.id, before: { a: 1 }, after: { a: 2 }, createdAt: ctx.clock.now() })
      .returning();
    return row!;
  };
  const current = async (id: string) => ctx.database.db.select().from(auditLog).where(eq(auditLog.id, id));
  const refusal = async (statement: Promise<unknown>) => {
    const error = await statement.then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error, 'the statement went through').toBeDefined();
    // Drizzle wraps the driver's error; the database's message is on the cause.
    const cause = (error as { cause?: { message?: string } }).cause;
    return String(cause?.message ?? (error as Error).message);
  };

  it('refuses to change a recorded decision, by Drizzle or by plain SQL', async () => {
    const row = await recorded();
    expect(await refusal(ctx.database.db.update(auditLog).set({ action: 'nothing.happened' }).where(eq(auditLog.id, row.id)))).toMatch(
      /audit_log is append-only: UPDATE refused/,
    );
    expect(await refusal(ctx.database.db.execute(sql`update audit_log set after = '{}'::jsonb, actor_id = null where id = ${row.id}`))).toMatch(
      /append-only/,
    );
    expect(await current(row.id)).toEqual([row]);
  });

  it('refuses to delete one, all of them, or truncate the table', async () => {
    const row = await recorded();
    expect(await refusal(ctx.database.db.delete(auditLog).where(eq(auditLog.id, row.id)))).toMatch(/audit_log is append-only: DELETE refused/);
    expect(await refusal(ctx.database.db.execute(sql`delete from audit_log`))).toMatch(/append-only/);
    expect(await refusal(ctx.database.db.execute(sql`truncate audit_log`))).toMatch(/audit_log is append-only: TRUNCATE refused/);
    expect(await current(row.id)).toEqual([row]);
    const [count] = await rows<{ count: number }>(ctx, sql`select count(*)::int as count from audit_log`);
    expect(count!.count).toBeGreaterThan(0);
  });

  it('still records new decisions, and an admin action writes its row as before', async () => {
    const member = await createUser(ctx);
    const deleted = await ctx.app.inject({ method: 'DELETE', url: `/api/users/${member.id}`, headers: bearer(people.adminToken) });
    expect(deleted.statusCode).toBe(200);
    const trail = await ctx.database.db.select().from(auditLog).where(eq(auditLog.targetId, member.id));
    expect(trail.map((entry) => entry.action)).toEqual(['user.deleted']);
  });

  it('lets a migration change the table by dropping and recreating the trigger in its own transaction, and only so', async () => {
    const row = await recorded();
    await ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql`drop trigger audit_log_append_only on audit_log`);
      await tx.execute(sql`update audit_log set action = 'user.renamed' where id = ${row.id}`);
      await tx.execute(sql`create trigger audit_log_append_only before update or delete on audit_log for each row execute function audit_log_append_only()`);
    });
    expect((await current(row.id))[0]!.action).toBe('user.renamed');
    expect(await refusal(ctx.database.db.execute(sql`update audit_log set action = 'again' where id = ${row.id}`))).toMatch(/append-only/);
  });
});

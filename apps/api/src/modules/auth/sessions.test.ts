import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema';
import { bearer, createUser, DEFAULT_PASSWORD, randomId, useTestApp, type TestContext } from '../../../test/test-app';

async function signIn(ctx: TestContext, email: string, userAgent: string) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/users/login',
    headers: { 'user-agent': userAgent },
    payload: { email, password: DEFAULT_PASSWORD, rememberMe: true },
  });
  return response.json<{ token: string }>().token;
}

const sessionsOf = (ctx: TestContext, token: string) => ctx.app.inject({ method: 'GET', url: '/api/users/sessions', headers: bearer(token) });
const revoke = (ctx: TestContext, token: string, id: string) =>
  ctx.app.inject({ method: 'DELETE', url: `/api/users/sessions/${id}`, headers: bearer(token) });

describe('sessions', () => {
  const ctx = useTestApp();

  it("lists the caller's live sessions, marking the current one", async () => {
    const member = await createUser(ctx);
    const laptop = await signIn(ctx, member.email, 'Laptop Firefox');
    ctx.clock.advance(5 * 60_000);
    const phone = await signIn(ctx, member.email, 'Phone Safari');
    const other = await createUser(ctx);
    await signIn(ctx, other.email, 'Someone else');

    const response = await sessionsOf(ctx, phone);
    expect(response.statusCode).toBe(200);
    const list = response.json();
    expect(list).toHaveLength(2);
    expect(list[0]).toEqual({
      id: expect.any(String),
      createdAt: ctx.clock.now().toISOString(),
      lastSeenAt: ctx.clock.now().toISOString(),
      userAgent: 'Phone Safari',
      current: true,
    });
    expect(list[1]).toMatchObject({ userAgent: 'Laptop Firefox', current: false });
    expect(JSON.stringify(list)).not.toMatch(/token|hash/i);
    expect((await sessionsOf(ctx, laptop)).json().find((s: { current: boolean }) => s.current).userAgent).toBe('Laptop Firefox');
  });

  it("revokes one of the caller's sessions at once (204), audited; another member's id is a 404", async () => {
    const member = await createUser(ctx);
    const laptop = await signIn(ctx, member.email, 'Laptop');
    const phone = await signIn(ctx, member.email, 'Phone');
    const laptopId = (await sessionsOf(ctx, laptop)).json().find((s: { current: boolean }) => s.current).id;

    const other = await createUser(ctx);
    const otherToken = await signIn(ctx, other.email, 'Other');
    const otherId = (await sessionsOf(ctx, otherToken)).json()[0].id;
    expect((await revoke(ctx, phone, otherId)).statusCode).toBe(404);
    expect((await sessionsOf(ctx, otherToken)).statusCode).toBe(200);
    for (const bad of [randomId(), 'not-a-uuid', '123']) expect((await revoke(ctx, phone, bad)).statusCode).toBe(404);

    const revoked = await revoke(ctx, phone, laptopId);
    expect(revoked.statusCode).toBe(204);
    expect(revoked.body).toBe('');
    expect((await sessionsOf(ctx, laptop)).statusCode).toBe(401);
    expect((await sessionsOf(ctx, phone)).json()).toHaveLength(1);
    expect((await revoke(ctx, phone, laptopId)).statusCode).toBe(404);

    const audit = await ctx.database.db.select().from(auditLog).where(eq(auditLog.targetId, laptopId));
    expect(audit).toMatchObject([{ action: 'session.revoked', actorId: member.id, targetType: 'session' }]);
  });

  it('signs out everywhere else, keeping the current session', async () => {
    const member = await createUser(ctx);
    const a = await signIn(ctx, member.email, 'A');
    const b = await signIn(ctx, member.email, 'B');
    const c = await signIn(ctx, member.email, 'C');
    const response = await ctx.app.inject({ method: 'DELETE', url: '/api/users/sessions', headers: bearer(c) });
    expect(response.statusCode).toBe(204);
    expect((await sessionsOf(ctx, a)).statusCode).toBe(401);
    expect((await sessionsOf(ctx, b)).statusCode).toBe(401);
    expect((await sessionsOf(ctx, c)).json()).toMatchObject([{ userAgent: 'C', current: true }]);
  });

  it('needs a session (401)', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/users/sessions' })).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'DELETE', url: `/api/users/sessions/${randomId()}` })).statusCode).toBe(401);
  });
});

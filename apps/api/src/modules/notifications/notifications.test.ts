import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { messages, NOTIFICATIONS_PAGE_SIZE, type Notification, type NotificationsPage } from '@terrafund/contracts';
import { checkoutOf } from '../../../test/sandbox-checkout';
import { createProject, investor } from '../../../test/project-fixtures';
import { apiCaller, createUser, loginAs, randomId, uniqueEmail, useAdmin, useTestApp } from '../../../test/test-app';
import { ADDRESSES, txHashFor, withdrawalBody } from '../../../test/withdrawals';
import { notifications } from '../../db/schema';
import { notify } from './notifications.service';

describe('notifications (the bell)', () => {
  const ctx = useTestApp();
  const admin = useAdmin(ctx);

  const call = apiCaller(() => ctx);
  const bell = async (token: string, cursor?: string) => {
    const response = await call('GET', `/notifications${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`, token);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<NotificationsPage>();
  };
  const markRead = (token: string, body: unknown) => call('POST', '/notifications/read', token, body);
  /** Mail delivered since the last call, to `email`. */
  const mailTo = async (email: string) => (await ctx.deliverMail()).filter((m) => m.to === email);

  /** Notifications written directly, one second apart, the newest last. */
  async function seed(userId: string, count: number) {
    for (let i = 0; i < count; i += 1) {
      ctx.clock.advance(1_000);
      await notify(ctx.database.db, ctx.app.deps, userId, 'withdrawal.failed', { amount: `${i}.00` }, `seed:${userId}:${i}`);
    }
  }

  it('answers 401 without a session, on both routes', async () => {
    expect((await call('GET', '/notifications')).statusCode).toBe(401);
    expect((await markRead('', { all: true })).statusCode).toBe(401);
  });

  it('starts empty', async () => {
    const { token } = await investor(ctx, 0);
    expect(await bell(token)).toEqual({ items: [], unreadCount: 0, nextCursor: null });
  });

  it('notifies and mails a withdrawal requested, then completed with its transaction hash', async () => {
    const { user, token } = await investor(ctx, 10_000);
    await ctx.deliverMail();
    const requested = await call('POST', '/transactions', token, withdrawalBody(30));
    expect(requested.statusCode).toBe(201);
    let page = await bell(token);
    expect(page.unreadCount).toBe(1);
    expect(page.items[0]).toMatchObject({ type: 'withdrawal.requested', readAt: null });
    expect(page.items[0]!.body).toContain('30.00');
    expect(page.items[0]!.body).toContain(ADDRESSES.BTC);
    expect((await mailTo(user.email)).map((m) => m.subject)).toEqual([expect.stringMatching(/withdrawal was requested/i)]);

    ctx.clock.advance(60_000);
    const id = requested.json().transaction._id as string;
    const decided = await call('PATCH', `/transactions/${id}/status`, admin.token, { status: 'completed', txHash: txHashFor('BTC', 'd') });
    expect(decided.statusCode).toBe(200);
    page = await bell(token);
    expect(page.unreadCount).toBe(2);
    expect(page.items.map((n) => n.type)).toEqual(['withdrawal.completed', 'withdrawal.requested']);
    expect(page.items[0]!.body).toContain(txHashFor('BTC', 'd'));
    const mail = await mailTo(user.email);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.text).toContain(txHashFor('BTC', 'd'));
  });

  it('notifies and mails a failed withdrawal', async () => {
    const { user, token } = await investor(ctx, 10_000);
    const requested = await call('POST', '/transactions', token, withdrawalBody(25));
    await ctx.deliverMail();
    ctx.clock.advance(1_000);
    expect((await call('PATCH', `/transactions/${requested.json().transaction._id}/status`, admin.token, { status: 'failed' })).statusCode).toBe(200);
    const page = await bell(token);
    expect(page.items[0]).toMatchObject({ type: 'withdrawal.failed', title: 'Withdrawal failed' });
    expect((await mailTo(user.email)).map((m) => m.subject)).toEqual([expect.stringMatching(/could not be completed/i)]);
  });

  it('notifies and mails a KYC approval, and a rejection with its reason', async () => {
    for (const [body, type, subject] of [
      [{ verified: true }, 'kyc.approved', /identity is verified/i],
      [{ verified: false, rejectionReason: 'The photo of your ID is blurred' }, 'kyc.rejected', /needs another look/i],
    ] as const) {
      const member = await createUser(ctx, { kycStatus: 'pending' });
      const token = await loginAs(ctx, member.email);
      await ctx.deliverMail();
      const decided = await call('POST', `/admin/verify/${member.id}`, admin.token, body);
      expect(decided.statusCode, decided.body).toBe(200);
      const page = await bell(token);
      expect(page.items.map((n) => n.type)).toEqual([type]);
      if (type === 'kyc.rejected') expect(page.items[0]!.body).toContain('The photo of your ID is blurred');
      const mail = await mailTo(member.email);
      expect(mail.map((m) => m.subject)).toEqual([expect.stringMatching(subject)]);
      if (type === 'kyc.rejected') expect(mail[0]!.text).toContain('The photo of your ID is blurred');
    }
  });

  it('notifies and mails an investment (a mail that did not exist before)', async () => {
    const project = await createProject(ctx, admin.token, { title: 'Harbour Lofts' });
    const { user, token } = await investor(ctx, 500_000);
    await ctx.deliverMail();
    const invested = await call('POST', `/projects/${project._id}/invest`, token, { amount: project.minInvestment });
    expect(invested.statusCode, invested.body).toBe(201);
    const page = await bell(token);
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ type: 'investment.made', title: 'Investment made' });
    expect(page.items[0]!.body).toContain('Harbour Lofts');
    const mail = await mailTo(user.email);
    expect(mail.map((m) => m.subject)).toEqual([expect.stringMatching(/investment in Harbour Lofts/i)]);
    expect(mail[0]!.text).toContain(`/projects/${project._id}`);
  });

  it('notifies and mails a settled pack payment once, however often the provider tells it', async () => {
    const member = await createUser(ctx);
    const token = await loginAs(ctx, member.email);
    await ctx.deliverMail();
    const started = await call('POST', '/transactions', token, { type: 'deposit', plan: 'gold' });
    expect(started.statusCode).toBe(201);
    const opened = await checkoutOf(ctx.app, started.json().payment_url);
    expect((await opened.press('pay')).statusCode).toBe(303);
    await opened.press('pay'); // the same notification again: refused, nothing more
    const page = await bell(token);
    expect(page.items.map((n) => n.type)).toEqual(['payment.settled']);
    expect(page.items[0]!.title).toBe('Your Gold pack is active');
    expect((await mailTo(member.email)).map((m) => m.subject)).toEqual([expect.stringMatching(/Gold pack is active/)]);
  });

  it('writes one notification per event key, even when the event is handled twice', async () => {
    const member = await createUser(ctx);
    const deps = ctx.app.deps;
    expect(await notify(ctx.database.db, deps, member.id, 'membership.ending', { pack: 'Gold', endsOn: '2029-01-01', daysLeft: 30 }, 'membership.ending:m1')).toBe(true);
    expect(await notify(ctx.database.db, deps, member.id, 'membership.ending', { pack: 'Gold', endsOn: '2029-01-01', daysLeft: 30 }, 'membership.ending:m1')).toBe(false);
    expect(await notify(ctx.database.db, deps, member.id, 'membership.ended', { pack: 'Gold', endedOn: '2029-01-01' }, 'membership.ended:m1')).toBe(true);
    const stored = await ctx.database.db.select().from(notifications).where(eq(notifications.userId, member.id));
    expect(stored.map((n) => n.type).sort()).toEqual(['membership.ended', 'membership.ending']);
  });

  it('pages newest first with a cursor, null on the last page, and refuses a forged cursor', async () => {
    const member = await createUser(ctx);
    const token = await loginAs(ctx, member.email);
    await seed(member.id, NOTIFICATIONS_PAGE_SIZE + 5);
    const first = await bell(token);
    expect(first.items).toHaveLength(NOTIFICATIONS_PAGE_SIZE);
    expect((await call('GET', '/notifications?cursor=', token)).json()).toEqual(first);
    expect(first.unreadCount).toBe(NOTIFICATIONS_PAGE_SIZE + 5);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await bell(token, first.nextCursor!);
    expect(second.items).toHaveLength(5);
    expect(second.nextCursor).toBeNull();
    const all: Notification[] = [...first.items, ...second.items];
    const times = all.map((n) => Date.parse(n.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(new Set(all.map((n) => n.id)).size).toBe(NOTIFICATIONS_PAGE_SIZE + 5);

    for (const forged of ['not-a-cursor', Buffer.from('2026-13-01T00:00:00.000000Z|x').toString('base64url'), 'x'.repeat(201)]) {
      const response = await call('GET', `/notifications?cursor=${forged}`, token);
      expect(response.statusCode, forged).toBe(400);
    }
    expect((await call('GET', '/notifications?cursor=not-a-cursor', token)).json().message).toBe(messages.notifications.cursorInvalid);
  });

  it('marks the caller\'s named notifications read, then all, and never another member\'s', async () => {
    const owner = await createUser(ctx);
    const other = await createUser(ctx);
    const ownerToken = await loginAs(ctx, owner.email);
    const otherToken = await loginAs(ctx, other.email);
    await seed(owner.id, 3);
    await seed(other.id, 2);
    const mine = (await bell(ownerToken)).items;
    const theirs = (await bell(otherToken)).items;

    const one = await markRead(ownerToken, { ids: [mine[0]!.id] });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual({ unreadCount: 2 });
    const after = await bell(ownerToken);
    expect(after.items.find((n) => n.id === mine[0]!.id)!.readAt).toEqual(expect.any(String));
    expect(after.items.filter((n) => n.readAt === null)).toHaveLength(2);

    // Another member's ids (and ids of nothing) are ignored: they stay unread for their owner.
    const foreign = await markRead(ownerToken, { ids: [theirs[0]!.id, theirs[1]!.id, randomId(), 'nonsense'] });
    expect(foreign.statusCode).toBe(200);
    expect(foreign.json()).toEqual({ unreadCount: 2 });
    expect((await bell(otherToken)).unreadCount).toBe(2);
    expect((await markRead(ownerToken, { all: true })).json()).toEqual({ unreadCount: 0 });
    expect((await bell(otherToken)).unreadCount).toBe(2);
    expect((await bell(ownerToken)).items.every((n) => n.readAt !== null)).toBe(true);
  });

  it('refuses a read request of the wrong shape with 400', async () => {
    const member = await createUser(ctx);
    const token = await loginAs(ctx, member.email);
    for (const body of [{}, { all: false }, { ids: [] }, { ids: 'x' }, { ids: Array.from({ length: 101 }, () => randomId()) }, { all: true, ids: [randomId()] }]) {
      const response = await markRead(token, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it('sends no notification for a daily dividend', async () => {
    const member = await createUser(ctx);
    const token = await loginAs(ctx, member.email);
    const started = await call('POST', '/transactions', token, { type: 'deposit', plan: 'startium' });
    await (await checkoutOf(ctx.app, started.json().payment_url)).press('pay');
    ctx.clock.advance(7 * 86_400_000);
    // A week later both sessions have gone idle: sign in again.
    const admin = await createUser(ctx, { role: 'admin', email: uniqueEmail('admin') });
    const run = await call('POST', '/admin/payouts/run', await loginAs(ctx, admin.email));
    expect(run.statusCode, run.body).toBe(200);
    const fresh = await loginAs(ctx, member.email);
    const transactions = (await call('GET', '/transactions', fresh)).json<{ type: string }[]>();
    expect(transactions.some((t) => t.type === 'payout')).toBe(true);
    expect((await bell(fresh)).items.map((n) => n.type)).toEqual(['payment.settled']);
  });
});

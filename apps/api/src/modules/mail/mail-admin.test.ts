import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import { mailMessages, UNDELIVERABLE_MAIL_PAGE, type UndeliverableMailPage } from '@terrafund/contracts';
import { mailOutbox } from '../../db/schema';
import { apiCaller, createUser, loginAs, randomId, useAdmin, useTestApp } from '../../../test/test-app';
import { enqueueMail, MAIL_RETRY_WINDOW_MS, processOutbox } from './mail.service';
import type { MailTransport, OutgoingMail } from './mail.transport';

/** GET /api/admin/mail/undeliverable and POST /api/admin/mail/{id}/resend, on mail the outbox really gave up on. */
describe('undeliverable mail, for admins', () => {
  const ctx = useTestApp();
  const admin = useAdmin(ctx);
  const api = apiCaller(() => ctx);
  const sent: OutgoingMail[] = [];
  let down = true;
  const transport: MailTransport = {
    async send(mail) {
      if (down) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:25'), { code: 'ESOCKET', command: 'CONN' });
      sent.push(mail);
    },
  };
  const pass = () =>
    processOutbox(ctx.database.db, { secrets: ctx.app.deps.secrets, clock: ctx.clock, transport, from: 'Terrafund <t@terrafund.test>', logger: pino({ level: 'silent' }) });

  beforeEach(async () => {
    await ctx.database.db.delete(mailOutbox);
    sent.length = 0;
    down = true;
  });

  /** Queues mail to each address and fails it for a whole day, so the outbox gives it up. */
  async function undeliverable(recipients: string[]) {
    for (const to of recipients) await enqueueMail(ctx.database.db, ctx.app.deps, to, 'passwordChanged', { firstName: 'Ada' });
    // A pass takes 20 at most: pass until nothing due is left.
    while ((await pass()).failed > 0);
    ctx.clock.advance(MAIL_RETRY_WINDOW_MS);
    await ctx.database.db.update(mailOutbox).set({ nextAttemptAt: ctx.clock.now() });
    while ((await pass()).failed > 0);
    const rows = await ctx.database.db.select().from(mailOutbox);
    expect(rows.every((r) => r.status === 'failed')).toBe(true);
    // A day went by: the admin's session has ended, sign in again.
    admin.token = await loginAs(ctx, admin.email);
  }

  it('lists them newest first with what was tried, pages them, and counts them all', async () => {
    const recipients = Array.from({ length: UNDELIVERABLE_MAIL_PAGE + 3 }, (_, i) => `lost.${i}@example.com`);
    await undeliverable(recipients);
    // Distinct creation times: newest first is then the reverse of the queueing order.
    await ctx.database.db.execute(
      sql`update mail_outbox set created_at = created_at + (substring(recipient from 'lost\\.([0-9]+)@')::int * interval '1 second')`,
    );
    const first = await api('GET', '/admin/mail/undeliverable', admin.token);
    expect(first.statusCode).toBe(200);
    const page = first.json<UndeliverableMailPage>();
    expect(page.total).toBe(recipients.length);
    expect(page.items).toHaveLength(UNDELIVERABLE_MAIL_PAGE);
    expect(page.items[0]).toMatchObject({ recipient: `lost.${recipients.length - 1}@example.com`, template: 'passwordChanged', attempts: 2, resendable: true });
    expect(page.items[0]!.lastError).toContain('ECONNREFUSED');
    expect(page.items[0]!.firstFailedAt).toEqual(expect.any(String));
    const second = (await api('GET', `/admin/mail/undeliverable?cursor=${page.nextCursor}`, admin.token)).json<UndeliverableMailPage>();
    expect(second.items.map((m) => m.recipient)).toEqual(['lost.2@example.com', 'lost.1@example.com', 'lost.0@example.com']);
    expect(second.nextCursor).toBeNull();
    // The same count on /metrics, for an alert.
    const metrics = await ctx.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(new RegExp(`^terrafund_mail_undeliverable ${recipients.length}$`, 'm'));
  });

  it('sends one again once, when an admin asks, and it leaves the list', async () => {
    await undeliverable(['again@example.com']);
    const [row] = await ctx.database.db.select().from(mailOutbox);
    down = false;
    const resent = await api('POST', `/admin/mail/${row!.id}/resend`, admin.token);
    expect(resent.statusCode).toBe(200);
    expect(resent.json()).toEqual({ id: row!.id, message: mailMessages.resent });
    // Twice is refused: it is no longer undeliverable.
    expect((await api('POST', `/admin/mail/${row!.id}/resend`, admin.token)).statusCode).toBe(404);
    await pass();
    await pass();
    expect(sent.map((m) => m.to)).toEqual(['again@example.com']);
    expect((await api('GET', '/admin/mail/undeliverable', admin.token)).json<UndeliverableMailPage>()).toEqual({ items: [], total: 0, nextCursor: null });
  });

  it('refuses what it cannot do with a clear 4xx: unknown or malformed ids, a mail without its content, a forged cursor', async () => {
    await undeliverable(['gone@example.com']);
    const [row] = await ctx.database.db.select().from(mailOutbox);
    await ctx.database.db.update(mailOutbox).set({ sealedBody: null }).where(eq(mailOutbox.id, row!.id));
    const noBody = await api('POST', `/admin/mail/${row!.id}/resend`, admin.token);
    expect(noBody.statusCode).toBe(409);
    expect(noBody.json()).toMatchObject({ message: mailMessages.noBody, code: 'CONFLICT' });
    for (const id of [randomId(), 'not-a-uuid', '%00', 'x'.repeat(199)]) {
      const response = await api('POST', `/admin/mail/${encodeURIComponent(id)}/resend`, admin.token);
      expect(response.statusCode, id).toBe(404);
    }
    for (const cursor of ['forged', 'x'.repeat(201), encodeURIComponent('a|b')]) {
      const response = await api('GET', `/admin/mail/undeliverable?cursor=${cursor}`, admin.token);
      expect(response.statusCode, cursor).toBe(400);
    }
  });

  it('is for admins only', async () => {
    const member = await createUser(ctx);
    const token = await loginAs(ctx, member.email);
    expect((await api('GET', '/admin/mail/undeliverable', token)).statusCode).toBe(403);
    expect((await api('GET', '/admin/mail/undeliverable')).statusCode).toBe(401);
  });
});

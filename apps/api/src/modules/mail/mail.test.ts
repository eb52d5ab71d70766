import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import { mailOutbox, users } from '../../db/schema';
import { codeFrom, createUser, rows, uniqueEmail, useTestApp } from '../../../test/test-app';
import {
  countUndeliverableMail,
  enqueueMail,
  listUndeliverableMail,
  MAIL_RETRY_WINDOW_MS,
  MAIL_SEND_BUDGET_MS,
  mailBackoffMs,
  mailWaitingForServer,
  processOutbox,
  releaseWaitingMail,
  resendMail,
} from './mail.service';
import type { MailTransport, OutgoingMail } from './mail.transport';

const logger = pino({ level: 'silent' });

/** A transport that records what it sends, optionally slowly, and fails while `failing` is set. */
function recordingTransport(options: { delayMs?: number } = {}) {
  const sent: OutgoingMail[] = [];
  const state = { failing: false, calls: 0 };
  const transport: MailTransport = {
    async send(mail) {
      state.calls += 1;
      if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      if (state.failing) throw new Error('SMTP server said no');
      sent.push(mail);
    },
  };
  return { transport, sent, state };
}

describe('mail outbox', () => {
  const ctx = useTestApp();
  // Each test looks at its own mail only.
  beforeEach(async () => {
    await ctx.database.db.delete(mailOutbox);
  });

  const pass = (transport: MailTransport) =>
    processOutbox(ctx.database.db, {
      secrets: ctx.app.deps.secrets,
      clock: ctx.clock,
      transport,
      from: 'Terrafund <no-reply@terrafund.test>',
      logger,
    });
  const outbox = () => ctx.database.db.select().from(mailOutbox);
  const queue = (to: string, code = '123456') =>
    enqueueMail(ctx.database.db, ctx.app.deps, to, 'verificationCode', { firstName: 'Test', code });

  it('queues mail in the transaction of the change: a registration that fails to commit leaves no mail', async () => {
    // A check that fails only at commit, after the user and the mail rows were written.
    await ctx.database.db.execute(
      sql`create function tf_test_refuse_doomed() returns trigger language plpgsql as $$
          begin
            if new.email like 'doomed.%' then raise exception 'refused at commit'; end if;
            return null;
          end $$`,
    );
    await ctx.database.db.execute(
      sql`create constraint trigger tf_test_refuse_doomed after insert on users
          deferrable initially deferred for each row execute function tf_test_refuse_doomed()`,
    );
    try {
      const email = uniqueEmail('doomed');
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/users/register',
        payload: { firstName: 'Doomed', lastName: 'User', email, password: 'long-enough-1' },
      });
      // The registration commits before it is answered: one that fails to commit is not answered 201.
      expect(response.statusCode).toBe(500);
      expect(await ctx.database.db.select().from(users).where(eq(users.email, email))).toEqual([]);
      expect(await outbox()).toEqual([]);

      // The same registration that commits does queue its mail.
      const fine = uniqueEmail('fine');
      const ok = await ctx.app.inject({
        method: 'POST',
        url: '/api/users/register',
        payload: { firstName: 'Fine', lastName: 'User', email: fine, password: 'long-enough-1' },
      });
      expect(ok.statusCode).toBe(201);
      expect((await outbox()).map((m) => m.recipient)).toEqual([fine]);
    } finally {
      await ctx.database.db.execute(sql`drop trigger tf_test_refuse_doomed on users`);
      await ctx.database.db.execute(sql`drop function tf_test_refuse_doomed()`);
    }
  });

  it('rolls a queued mail back with the transaction it was queued in', async () => {
    await expect(
      ctx.database.db.transaction(async (tx) => {
        await enqueueMail(tx, ctx.app.deps, 'rollback@example.com', 'passwordChanged', { firstName: 'Test' });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await outbox()).toEqual([]);
  });

  it('stores the body encrypted and erases it once sent', async () => {
    const email = uniqueEmail('sealed');
    await ctx.app.inject({
      method: 'POST',
      url: '/api/users/register',
      payload: { firstName: 'Sealed', lastName: 'Body', email, password: 'long-enough-1' },
    });
    const [queued] = await outbox();
    expect(queued).toMatchObject({ recipient: email, status: 'pending', attempts: 0, template: 'verificationCode' });
    const sealed = queued!.sealedBody!;
    expect(sealed).toEqual(expect.any(String));

    const { transport, sent } = recordingTransport();
    expect(await pass(transport)).toEqual({ sent: 1, failed: 0, undeliverable: 0 });
    const code = codeFrom(sent, email);
    expect(sealed).not.toContain(code);
    expect(sealed).not.toContain('Terrafund');
    expect(ctx.app.deps.secrets.decrypt(sealed)).toContain(code);

    const [done] = await outbox();
    expect(done).toMatchObject({ status: 'sent', sealedBody: null, lockedUntil: null, attempts: 1 });
    expect(done!.sentAt).toEqual(ctx.clock.now());
    const raw = await rows<{ sealed_body: string | null }>(ctx, sql`select sealed_body from mail_outbox`);
    expect(raw).toEqual([{ sealed_body: null }]);

    // Sent once: another pass finds nothing.
    expect(await pass(transport)).toEqual({ sent: 0, failed: 0, undeliverable: 0 });
    expect(sent).toHaveLength(1);
  });

  it('keeps a mail the transport refused, backs off, and sends it exactly once later', async () => {
    await queue('retry@example.com');
    const { transport, sent, state } = recordingTransport();
    state.failing = true;
    const start = ctx.clock.now();

    expect(await pass(transport)).toEqual({ sent: 0, failed: 1, undeliverable: 0 });
    const [failedOnce] = await outbox();
    expect(failedOnce).toMatchObject({ status: 'pending', attempts: 1, lockedUntil: null, lastError: 'SMTP server said no' });
    expect(failedOnce!.sealedBody).not.toBeNull();
    expect(failedOnce!.nextAttemptAt.getTime()).toBe(start.getTime() + mailBackoffMs(1));
    expect(mailBackoffMs(1)).toBeGreaterThan(0);

    // Not due yet: nothing is tried, even with a working transport.
    state.failing = false;
    ctx.clock.advance(mailBackoffMs(1) - 1_000);
    expect(await pass(transport)).toEqual({ sent: 0, failed: 0, undeliverable: 0 });
    expect(state.calls).toBe(1);

    ctx.clock.advance(2_000);
    expect(await pass(transport)).toEqual({ sent: 1, failed: 0, undeliverable: 0 });
    expect(await pass(transport)).toEqual({ sent: 0, failed: 0, undeliverable: 0 });
    expect(sent.map((m) => m.to)).toEqual(['retry@example.com']);
    expect(sent[0]!.text).toContain('123456');
    const [done] = await outbox();
    expect(done).toMatchObject({ status: 'sent', attempts: 2, sealedBody: null });
  });

  it('never sends one mail twice when two passes run at once', async () => {
    const recipients = Array.from({ length: 12 }, (_, i) => `parallel.${i}@example.com`);
    for (const to of recipients) await queue(to);
    const { transport, sent } = recordingTransport({ delayMs: 5 });

    const results = await Promise.all([pass(transport), pass(transport), pass(transport)]);
    expect(results.reduce((n, r) => n + r.sent, 0)).toBe(recipients.length);
    expect(sent.map((m) => m.to).sort()).toEqual([...recipients].sort());
    expect((await outbox()).every((m) => m.status === 'sent')).toBe(true);

    expect(await pass(transport)).toEqual({ sent: 0, failed: 0, undeliverable: 0 });
    expect(sent).toHaveLength(recipients.length);
  });

  it('keeps trying for 24 hours, backoff capped at an hour, then keeps the mail as undeliverable with its body', async () => {
    await queue('hopeless@example.com');
    const { transport, state } = recordingTransport();
    state.failing = true;
    const firstFailure = ctx.clock.now();

    let previousDelay = 0;
    for (let attempt = 1; ; attempt += 1) {
      const pass1 = await pass(transport);
      const [row] = await outbox();
      expect(row!.attempts).toBe(attempt);
      if (row!.status === 'failed') {
        expect(pass1).toEqual({ sent: 0, failed: 1, undeliverable: 1 });
        break;
      }
      expect(pass1).toEqual({ sent: 0, failed: 1, undeliverable: 0 });
      expect(row!.status).toBe('pending');
      expect(row!.firstFailedAt).toEqual(firstFailure);
      const delay = row!.nextAttemptAt.getTime() - ctx.clock.now().getTime();
      expect(delay).toBe(mailBackoffMs(attempt));
      expect(delay).toBeGreaterThanOrEqual(previousDelay);
      expect(delay).toBeLessThanOrEqual(3_600_000);
      previousDelay = delay;
      ctx.clock.advance(delay);
    }
    const [row] = await outbox();
    // Given up only once a whole day of attempts had failed, and never more than an hour after that.
    const given = ctx.clock.now().getTime() - firstFailure.getTime();
    expect(given).toBeGreaterThanOrEqual(MAIL_RETRY_WINDOW_MS);
    expect(given).toBeLessThan(MAIL_RETRY_WINDOW_MS + 3_600_000);
    expect(row!.attempts).toBeGreaterThan(20);
    expect(row).toMatchObject({ status: 'failed', lastError: 'SMTP server said no' });
    expect(row!.sealedBody).not.toBeNull();
    expect(await countUndeliverableMail(ctx.database.db)).toBe(1);

    // Nothing more is tried by itself; an admin's resend gives it a fresh day and it goes out once.
    state.failing = false;
    const calls = state.calls;
    ctx.clock.advance(24 * 3600_000);
    expect(await pass(transport)).toEqual({ sent: 0, failed: 0, undeliverable: 0 });
    expect(state.calls).toBe(calls);
    const [listed] = (await listUndeliverableMail(ctx.database.db, { limit: 10 })).rows;
    expect(listed).toMatchObject({ id: row!.id, recipient: 'hopeless@example.com', resendable: true, attempts: row!.attempts });
    expect(await resendMail(ctx.database.db, ctx.clock, row!.id)).toBe('queued');
    expect(await resendMail(ctx.database.db, ctx.clock, row!.id)).toBe('not-found');
    expect(await pass(transport)).toEqual({ sent: 1, failed: 0, undeliverable: 0 });
    expect(await pass(transport)).toEqual({ sent: 0, failed: 0, undeliverable: 0 });
    expect(state.calls).toBe(calls + 1);
    expect(await countUndeliverableMail(ctx.database.db)).toBe(0);
  });

  it('counts the 24 hours from the first failed attempt, not from when the mail was queued', async () => {
    await queue('late@example.com');
    // The server was down for two days with this mail queued and never tried.
    ctx.clock.advance(48 * 3600_000);
    const { transport, state } = recordingTransport();
    state.failing = true;
    expect(await pass(transport)).toEqual({ sent: 0, failed: 1, undeliverable: 0 });
    expect((await outbox())[0]).toMatchObject({ status: 'pending', attempts: 1 });
  });

  it('gives up at once on a body no key opens (APP_SECRET changed) and erases it: it cannot be sent again', async () => {
    await queue('unreadable@example.com');
    await ctx.database.db.update(mailOutbox).set({ sealedBody: 'not-a-sealed-body' });
    const { transport, state } = recordingTransport();
    expect(await pass(transport)).toEqual({ sent: 0, failed: 1, undeliverable: 1 });
    expect(state.calls).toBe(0);
    const [row] = await outbox();
    expect(row).toMatchObject({ status: 'failed', sealedBody: null });
    expect(await resendMail(ctx.database.db, ctx.clock, row!.id)).toBe('no-body');
    expect((await listUndeliverableMail(ctx.database.db, { limit: 10 })).rows[0]).toMatchObject({ resendable: false });
  });

  it('sends mail that waited for an unreachable server as soon as it answers, not at its next backoff time', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:2525'), { code: 'ESOCKET', command: 'CONN' });
    const rejected = Object.assign(new Error('550 mailbox unavailable'), { responseCode: 550, command: 'RCPT TO' });
    await queue('waiting@example.com');
    await queue('rejected@example.com');
    let answer: Error | undefined = refused;
    const transport: MailTransport = {
      async send(mail) {
        if (mail.to === 'rejected@example.com') throw rejected;
        if (answer) throw answer;
      },
    };
    // Several attempts: the backoff grows well past the poll interval.
    for (let i = 0; i < 6; i += 1) {
      expect((await pass(transport)).failed).toBe(2);
      ctx.clock.advance(mailBackoffMs(i + 1));
    }
    expect(await mailWaitingForServer(ctx.database.db, ctx.clock)).toBe(false);
    expect((await pass(transport)).failed).toBe(2);
    expect(await mailWaitingForServer(ctx.database.db, ctx.clock)).toBe(true);
    answer = undefined;
    // Only the mail that waited for the server is due at once; the one the server refused keeps its backoff.
    expect(await releaseWaitingMail(ctx.database.db, ctx.clock)).toBe(1);
    expect(await pass(transport)).toEqual({ sent: 1, failed: 0, undeliverable: 0 });
    const byRecipient = Object.fromEntries((await outbox()).map((m) => [m.recipient, m]));
    expect(byRecipient['waiting@example.com']).toMatchObject({ status: 'sent', waitingForServer: false });
    expect(byRecipient['rejected@example.com']).toMatchObject({ status: 'pending', waitingForServer: false });
    expect(byRecipient['rejected@example.com']!.nextAttemptAt.getTime()).toBeGreaterThan(ctx.clock.now().getTime());
  });

  it('hands back, untried, the rows of a pass whose lease would run out under a send', async () => {
    for (const to of ['slow.1@example.com', 'slow.2@example.com', 'slow.3@example.com']) await queue(to);
    const sent: string[] = [];
    const transport: MailTransport = {
      async send(mail) {
        sent.push(mail.to);
        // Each send takes (on the injected clock) most of the lease.
        ctx.clock.advance(MAIL_SEND_BUDGET_MS + 40_000);
      },
    };
    expect((await pass(transport)).sent).toBe(1);
    const rows1 = await outbox();
    const untried = rows1.filter((m) => m.status === 'pending');
    expect(untried).toHaveLength(2);
    for (const m of untried) expect(m).toMatchObject({ attempts: 0, lockedUntil: null });
    expect((await pass(transport)).sent).toBe(1);
    expect((await pass(transport)).sent).toBe(1);
    expect([...sent].sort()).toEqual(['slow.1@example.com', 'slow.2@example.com', 'slow.3@example.com']);
  });

  it('sends the verification mail from the configured sender with text and HTML parts', async () => {
    const user = await createUser(ctx, { emailVerifiedAt: null, firstName: '<b>Bold</b>' });
    await ctx.app.inject({ method: 'POST', url: '/api/users/resend-otp', payload: { email: user.email } });
    const { transport, sent } = recordingTransport();
    await pass(transport);
    expect(sent).toHaveLength(1);
    const [mail] = sent;
    expect(mail).toMatchObject({ from: 'Terrafund <no-reply@terrafund.test>', to: user.email });
    expect(mail!.subject).toMatch(/Terrafund/);
    const code = codeFrom(sent, user.email);
    expect(mail!.text).toContain(code);
    expect(mail!.html).toContain(code);
    // A name is data, never markup, in the HTML part.
    expect(mail!.html).not.toContain('<b>Bold</b>');
    expect(mail!.html).toContain('&lt;b&gt;Bold&lt;/b&gt;');
  });
});

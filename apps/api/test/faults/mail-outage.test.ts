import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { UndeliverableMailPage } from '@terrafund/contracts';
import { waitFor } from '../processes/harness';
import { bearer, faultsSkipReason, json } from './backends';
import { useFaultInstance } from './fault-instance';

type OutboxRow = { id: string; recipient: string; status: string; attempts: number; waiting_for_server: boolean; last_error: string | null };

/**
 * The mail server is down for an hour, or a day: every mail goes out once it is back, exactly once. The outage is real
 * (the SMTP sink stopped while mail is queued); the hours are not waited for: the outbox rows are dated back, as if
 * their first failure had been 23 hours ago (still retried) or 25 hours ago (given up on: kept as undeliverable, listed
 * for the admin and counted by /metrics, and sent once when the admin asks).
 */
describe.skipIf(faultsSkipReason)('the mail server is down for an hour, or a day', () => {
  const run = useFaultInstance('mail', { admin: true });
  const newcomers = Array.from({ length: 3 }, (_, i) => `newcomer-${i}-${randomBytes(3).toString('hex')}@terrafund.test`);

  const outbox = () =>
    run.backends.sql<OutboxRow>(
      `select id, recipient, status, attempts, waiting_for_server, last_error from mail_outbox where recipient = any($1::text[]) order by recipient`,
      [[...newcomers, run.member.email]],
    );
  const undeliverable = async () =>
    (await (await fetch(`${run.instance.url}/api/admin/mail/undeliverable`, bearer(run.adminToken))).json()) as UndeliverableMailPage;
  const metric = async () => /^terrafund_mail_undeliverable (\d+)$/m.exec(await (await fetch(`${run.instance.url}/metrics`, bearer(run.backends.metricsToken))).text())?.[1];

  it('keeps every mail while the server is down, retrying, and gives up only after a day: kept, listed and counted', async () => {
    await run.backends.sink.stop();
    for (const email of newcomers) {
      const response = await fetch(`${run.instance.url}/api/users/register`, json({ firstName: 'New', lastName: 'Comer', email, password: 'Tf-correct-horse-9' }));
      expect(response.status).toBe(201);
    }
    expect((await fetch(`${run.instance.url}/api/users/forgot-password`, json({ email: run.member.email }))).status).toBe(200);

    // Each one tried and kept, waiting for the server.
    await waitFor('every mail to have failed once', async () => (await outbox()).filter((r) => r.status === 'pending' && r.attempts > 0).length === 4, 60_000, 250);
    const waiting = (await outbox()).filter((r) => r.status === 'pending');
    expect(waiting.length).toBeGreaterThanOrEqual(4);
    for (const row of waiting) expect(row).toMatchObject({ waiting_for_server: true, last_error: expect.stringMatching(/ECONNREFUSED|connect/i) });

    // Down for most of a day: still retried. Down for more than a day: given up on at its next attempt.
    const [given] = newcomers;
    await run.backends.sql(
      `update mail_outbox set first_failed_at = now() - interval '23 hours', attempts = 25 where recipient = any($1::text[]) and status = 'pending'`,
      [newcomers.slice(1).concat(run.member.email)],
    );
    await run.backends.sql(`update mail_outbox set first_failed_at = now() - interval '25 hours', attempts = 26, next_attempt_at = now() where recipient = $1`, [given]);
    await waitFor('the day-old mail to be given up on', async () => (await outbox()).find((r) => r.recipient === given)?.status === 'failed', 60_000, 250);

    const listed = await undeliverable();
    expect(listed.total).toBe(1);
    expect(listed.items[0]).toMatchObject({ recipient: given, resendable: true, template: 'verificationCode' });
    expect(await metric()).toBe('1');
    // The others are still waiting, not given up on.
    expect((await outbox()).filter((r) => r.recipient !== given && r.status !== 'sent').map((r) => r.status)).toEqual(['pending', 'pending', 'pending']);
  });

  it('sends every waiting mail once the server is back, exactly once, and the undeliverable one when the admin asks', async () => {
    await run.backends.sink.start();
    const started = Date.now();
    // Backed off for up to an hour, yet sent within seconds: the outbox asks the server again while mail waits for it.
    await waitFor('the waiting mail to go out', async () => (await outbox()).filter((r) => r.status === 'pending').length === 0, 90_000, 250);
    console.log(`[faults] the mail that waited went out ${Date.now() - started} ms after the SMTP server was back`);
    for (const email of newcomers.slice(1)) expect(run.backends.sink.mailTo(email).map((m) => m.subject)).toEqual([expect.stringMatching(/verification code/i)]);
    expect(run.backends.sink.mailTo(run.member.email).filter((m) => /reset/i.test(m.subject))).toHaveLength(1);
    expect(run.backends.sink.mailTo(newcomers[0]!)).toEqual([]);

    const [given] = (await undeliverable()).items;
    const resent = await fetch(`${run.instance.url}/api/admin/mail/${given!.id}/resend`, { method: 'POST', ...bearer(run.adminToken) });
    expect(resent.status).toBe(200);
    await run.backends.sink.waitForMail(newcomers[0]!, /verification code/i);
    expect((await undeliverable()).total).toBe(0);
    expect(await metric()).toBe('0');

    // Once each, a while later too.
    await new Promise((r) => setTimeout(r, 6000));
    for (const email of newcomers) expect(run.backends.sink.mailTo(email), email).toHaveLength(1);
    expect(run.backends.sink.mailTo(run.member.email).filter((m) => /reset/i.test(m.subject))).toHaveLength(1);
  });
});

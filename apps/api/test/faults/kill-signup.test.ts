import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Instance } from '../processes/harness';
import { discard, faultsSkipReason, json, login, startFaultBackends, type FaultBackends } from './backends';

const SIGN_UPS = 5;

/**
 * `kill -9` of the server the moment its sign-ups are answered 201: a 201 means the account, its code and the code's
 * mail have committed (auth.service.ts: the work is done before the answer, the same for every address, and nothing
 * is left in memory). The mail server is down meanwhile, so when the server dies the code mails exist only as rows of
 * the outbox. After the restart each account is there and signs in with the code from its mail, sent once.
 */
describe.skipIf(faultsSkipReason)('kill -9 right after sign-ups were answered 201', () => {
  let backends: FaultBackends;
  let instance: Instance | undefined;

  beforeAll(async () => {
    backends = await startFaultBackends('killsignup');
    instance = await backends.start('signup-a');
  });
  afterAll(async () => {
    await discard(instance);
    await backends?.close();
  });
  afterEach((context) => {
    if (context.task.result?.state === 'fail') console.log(instance?.output().slice(-8000));
  });

  it('keeps every sign-up answered 201: after the restart each account signs in with the code from its mail, mailed once', async () => {
    const password = 'Tf-correct-horse-9';
    const people = Array.from({ length: SIGN_UPS }, (_, i) => `signup-${i}-${randomBytes(3).toString('hex')}@terrafund.test`);
    await backends.sink.stop();

    const url = instance!.url;
    const answers = await Promise.all(
      people.map((email) => fetch(`${url}/api/users/register`, json({ firstName: 'Kim', lastName: 'Killed', email, password }))),
    );
    await instance!.stop('SIGKILL');
    expect(answers.map((a) => a.status)).toEqual(people.map(() => 201));

    // At the kill: each account, its live code and its one code mail, committed.
    const stored = await backends.sql<{ email: string; codes: number; mails: number }>(
      `select u.email,
         (select count(*)::int from email_codes c where c.user_id = u.id and c.consumed_at is null) as codes,
         (select count(*)::int from mail_outbox m where m.recipient = u.email and m.template = 'verificationCode') as mails
       from users u where u.email = any($1::text[]) and u.email_verified_at is null order by u.email`,
      [people],
    );
    expect(stored).toEqual([...people].sort().map((email) => ({ email, codes: 1, mails: 1 })));

    await discard(instance);
    await backends.sink.start();
    instance = await backends.start('signup-b');
    for (const email of people) {
      // A pass the kill interrupted holds its rows for the outbox's lease (2 minutes) before another takes them.
      const mail = await backends.sink.waitForMail(email, /verification code/i, 180_000);
      const otp = /(?:^|\s)(\d{6})(?:\s|$)/m.exec(mail.body)?.[1];
      expect(otp, `a code in the mail to ${email}`).toBeDefined();
      const verified = await fetch(`${instance.url}/api/users/verify-otp`, json({ email, otp }));
      expect(verified.status, email).toBe(200);
      expect(((await verified.json()) as { user: { email: string } }).user.email).toBe(email);
      expect(await login(instance.url, email, password)).toEqual(expect.any(String));
    }

    // Once each, a while later too: a mail the killed server had tried is not sent twice.
    await new Promise((resolve) => setTimeout(resolve, 6000));
    for (const email of people) expect(backends.sink.mailTo(email).map((m) => m.subject), email).toEqual([expect.stringMatching(/verification code/i)]);
  });
});

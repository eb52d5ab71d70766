import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { startFakeBtcpay } from '../fake-http-server';
import { productionInstanceEnv } from '../production-env';
import { createDatabase, json, repoRoot, startS3, type SharedEnv } from './harness';

export { bearer, json, login } from './harness';

type MailSink = { smtpUrl: string; mailboxUrl: string; close(): Promise<void> };
type Mail = { to: string[]; subject: string; body: string };

/**
 * The production form the multi-process tests start: NODE_ENV=production against a real PostgreSQL database,
 * Redis, an S3-compatible bucket (s3rver), BTCPay (the fake Greenfield server of fake-http-server.ts; the sandbox is
 * for development only), real SMTP into the sink the browser tests use, an APP_SECRET and an https PUBLIC_URL.
 */
export async function startProductionBackends(name: string) {
  const database = await createDatabase(name);
  const s3 = await startS3();
  const btcpay = await startFakeBtcpay();
  // The sink is plain JavaScript shared with scripts/e2e.mjs; imported by path so it needs no type declaration.
  const { startMailSink } = (await import(path.join(repoRoot, 'scripts/mail-sink.mjs'))) as { startMailSink: () => Promise<MailSink> };
  const sink = await startMailSink();
  const { env: instanceEnv, admin, metricsToken } = productionInstanceEnv({
    databaseUrl: database.url,
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    smtpUrl: sink.smtpUrl,
    btcpayUrl: btcpay.url,
    s3Env: s3.env,
  });
  const env: SharedEnv = { ...instanceEnv, TRUST_PROXY: '1' };

  /** Waits for the newest mail to `email` whose subject matches. */
  const waitForMail = async (email: string, subject: RegExp): Promise<Mail> => {
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const mails = (await (await fetch(`${sink.mailboxUrl}/?to=${encodeURIComponent(email)}`)).json()) as Mail[];
      const found = mails.filter((m) => subject.test(m.subject)).at(-1);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no mail "${subject}" to ${email}`);
  };

  return {
    env,
    database,
    s3,
    btcpay,
    sink,
    admin,
    metricsToken,
    waitForMail,
    async close() {
      await Promise.allSettled([s3.close(), btcpay.close(), sink.close()]);
      await database.drop();
    },
  };
}
export type ProductionBackends = Awaited<ReturnType<typeof startProductionBackends>>;


/**
 * A member signs up through `registerAt`, reads the code from the mail and verifies it through `verifyAt`:
 * the session token comes from the second address.
 */
export async function signUp(backends: ProductionBackends, registerAt: string, verifyAt: string) {
  const email = `member-${randomBytes(4).toString('hex')}@terrafund.test`;
  const password = 'Tf-correct-horse-9';
  const registered = await fetch(`${registerAt}/api/users/register`, json({ firstName: 'Ada', lastName: 'Scale', email, password }));
  if (registered.status !== 201) throw new Error(`register: ${registered.status} ${await registered.text()}`);
  const mail = await backends.waitForMail(email, /verification code/i);
  const otp = /(?:^|\s)(\d{6})(?:\s|$)/m.exec(mail.body)?.[1];
  if (!otp) throw new Error(`no code in the mail to ${email}`);
  const verified = await fetch(`${verifyAt}/api/users/verify-otp`, json({ email, otp }));
  if (verified.status !== 200) throw new Error(`verify: ${verified.status} ${await verified.text()}`);
  const { token, user } = (await verified.json()) as { token: string; user: { _id?: string; id?: string } };
  return { email, password, token, userId: user._id ?? user.id ?? '' };
}


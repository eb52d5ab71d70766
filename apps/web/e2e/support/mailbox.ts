import { mailSubject } from './catalogue';
import { expect } from '@playwright/test';

type Mail = { to: string[]; subject: string; body: string; receivedAt: string };

const mailboxUrl = () => {
  const url = process.env.E2E_MAILBOX_URL;
  if (!url) throw new Error('E2E_MAILBOX_URL is not set: run the journeys with `npm run test:e2e`');
  return url;
};

async function mailTo(email: string): Promise<Mail[]> {
  const response = await fetch(`${mailboxUrl()}/?to=${encodeURIComponent(email)}`);
  return (await response.json()) as Mail[];
}

/** Waits for the `nth` mail (1-based) to `email` whose subject matches, and returns it. */
export async function waitForMail(email: string, subject: RegExp, nth = 1): Promise<Mail> {
  let found: Mail | undefined;
  await expect
    .poll(
      async () => {
        const matching = (await mailTo(email)).filter((m) => subject.test(m.subject));
        found = matching[nth - 1];
        return matching.length;
      },
      { timeout: 20_000, message: `waiting for mail ${nth} "${subject}" to ${email}` },
    )
    .toBeGreaterThanOrEqual(nth);
  return found!;
}

/** Every mail to `email` so far whose subject matches, oldest first (no waiting). */
export async function mailsTo(email: string, subject: RegExp): Promise<Mail[]> {
  return (await mailTo(email)).filter((m) => subject.test(m.subject));
}

const codeIn = (mail: Mail, email: string) => {
  const code = /(?:^|\s)(\d{6})(?:\s|$)/m.exec(mail.body)?.[1];
  if (!code) throw new Error(`no code in the mail to ${email}`);
  return code;
};

/** The code mail's subject, in whichever language the sign-up was made in. */
const VERIFICATION_SUBJECT = mailSubject('verificationCode');

/** The 6-digit verification code of the nth code mail to `email`. */
export async function verificationCode(email: string, nth = 1): Promise<string> {
  return codeIn(await waitForMail(email, VERIFICATION_SUBJECT, nth), email);
}

/** The code of the newest code mail to `email` (waiting for at least one). */
export async function latestVerificationCode(email: string): Promise<string> {
  await waitForMail(email, VERIFICATION_SUBJECT, 1);
  const mails = await mailsTo(email, VERIFICATION_SUBJECT);
  return codeIn(mails[mails.length - 1]!, email);
}

/** The reset link of the nth reset mail to `email`. */
export async function resetLink(email: string, nth = 1): Promise<string> {
  const mail = await waitForMail(email, /reset your password/i, nth);
  const link = /(https?:\/\/\S+\/reset-password\?token=[A-Za-z0-9_%-]+)/.exec(mail.body)?.[1];
  if (!link) throw new Error(`no reset link in the mail to ${email}`);
  return link;
}

export const admin = () => ({
  email: process.env.E2E_ADMIN_EMAIL ?? 'admin@e2e.terrafund.test',
  password: process.env.E2E_ADMIN_PASSWORD ?? 'e2e-admin-password',
});

let counter = 0;
export const uniqueEmail = (prefix = 'member') => `${prefix}.${Date.now().toString(36)}.${(counter += 1)}@example.com`;

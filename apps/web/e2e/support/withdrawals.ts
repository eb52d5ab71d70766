import { randomBytes } from 'node:crypto';
import { mailSubject } from './catalogue';
import { mailsTo, waitForMail } from './mailbox';

/**
 * A fresh Ethereum address for this run: `0x` and 40 lowercase hex digits, which carries no EIP-55 checksum and is
 * valid as it is. Each journey withdraws to its own, so a new address really is new (the address book is shared).
 */
export const newEthAddress = () => `0x${randomBytes(20).toString('hex')}`;

/** The confirmation mail's subject, in whichever language the member speaks. */
const CONFIRM_SUBJECT = mailSubject('withdrawalConfirm');

/** How many withdrawal confirmation mails `email` has had so far: read it before asking for another. */
export const confirmMailCount = async (email: string) => (await mailsTo(email, CONFIRM_SUBJECT)).length;

/** The link of the nth withdrawal confirmation mail (1-based) to `email`, and the mail's text. */
export async function confirmLink(email: string, nth: number): Promise<{ link: string; body: string }> {
  const mail = await waitForMail(email, CONFIRM_SUBJECT, nth);
  const link = /(https?:\/\/\S+\/wallet\/withdrawals\/confirm\?token=[A-Za-z0-9_%.~-]+)/.exec(mail.body)?.[1];
  if (!link) throw new Error(`no confirmation link in the mail to ${email}`);
  return { link, body: mail.body };
}

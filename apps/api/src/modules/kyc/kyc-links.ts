import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Short-lived signed links to private KYC files: `/api/kyc/files/<id>?expires=<unix s>&disposition=…&sig=…`.
 * The signature covers the id, the expiry and the disposition, keyed with the application secret, so a link
 * cannot be extended, redirected to another file or switched from inline to download.
 */
const KYC_LINK_TTL_SECONDS = 5 * 60;
export type Disposition = 'inline' | 'attachment';

const sign = (appSecret: string, id: string, expires: number, disposition: Disposition) =>
  createHmac('sha256', `${appSecret}:kyc-file-links:v1`).update(`${id}\n${expires}\n${disposition}`).digest('base64url');

export function signKycLink(appSecret: string, id: string, now: Date, disposition: Disposition = 'inline') {
  const expires = Math.floor(now.getTime() / 1000) + KYC_LINK_TTL_SECONDS;
  const sig = sign(appSecret, id, expires, disposition);
  return {
    url: `/api/kyc/files/${id}?expires=${expires}&disposition=${disposition}&sig=${sig}`,
    expiresAt: new Date(expires * 1000),
  };
}

export function verifyKycLink(
  appSecret: string,
  link: { id: string; expires: number; disposition: Disposition; sig: string },
  now: Date,
): boolean {
  if (link.expires * 1000 <= now.getTime()) return false;
  const expected = Buffer.from(sign(appSecret, link.id, link.expires, link.disposition));
  const given = Buffer.from(link.sig);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

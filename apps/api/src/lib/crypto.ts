import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { OTP_LENGTH } from '@terrafund/contracts';

/**
 * Keyed hashing and encryption derived from the one application secret. Secrets the server hands out
 * (session tokens, reset tokens, e-mail codes) are stored only as HMACs of this key: a database leak
 * alone does not let anyone use them, and a 6-digit code cannot be brute-forced offline without the key.
 */
export type Secrets = ReturnType<typeof createSecrets>;

export function createSecrets(appSecret: string) {
  const derive = (purpose: string) => Buffer.from(hkdfSync('sha256', appSecret, Buffer.alloc(0), purpose, 32));
  const hashKey = derive('terrafund:token-hash:v1');
  const mailKey = derive('terrafund:mail-outbox:v1');
  const totpKey = derive('terrafund:totp-secret:v1');

  return {
    /**
     * The key the built-in sandbox signs its payment notifications with: derived, so the sandbox needs no
     * setting of its own, and nothing signed with it opens anything else.
     */
    sandboxWebhookKey: derive('terrafund:sandbox-webhook:v1').toString('hex'),
    /** HMAC-SHA256, hex: what is stored for every token and code. */
    hash(value: string): string {
      return createHmac('sha256', hashKey).update(value, 'utf8').digest('hex');
    },
    /** Constant-time comparison of a presented value with a stored hash. */
    matches(value: string, storedHash: string): boolean {
      const a = Buffer.from(this.hash(value), 'hex');
      const b = Buffer.from(storedHash, 'hex');
      return a.length === b.length && timingSafeEqual(a, b);
    },
    /** AES-256-GCM, for mail bodies waiting in the outbox (they may hold a code or a reset link). */
    encrypt: (plain: string) => seal(mailKey, plain),
    decrypt: (sealed: string) => unseal(mailKey, sealed),
    /** Members' TOTP secrets at rest: the server must read them back, so sealed rather than hashed. */
    sealTotpSecret: (plain: string) => seal(totpKey, plain),
    openTotpSecret: (sealed: string) => unseal(totpKey, sealed),
  };
}

function seal(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
}

function unseal(key: Buffer, sealed: string): string {
  const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !tag || !body) throw new Error('Malformed sealed value');
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
}

/** A random token of `bytes` bytes, URL-safe. */
export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');

/** A uniformly random numeric code from the CSPRNG (never Math.random). */
export const randomCode = (length = OTP_LENGTH): string =>
  Array.from({ length }, () => randomInt(0, 10).toString()).join('');

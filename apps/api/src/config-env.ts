import { isIP } from 'node:net';
import { z } from 'zod';
import { DEFAULT_CONTACT, DEFAULT_WITHDRAWAL_ASSETS, EMAIL_PATTERN, KYC_RETENTION_DAYS_DEFAULT, MIN_WITHDRAWAL_USD, PASSWORD_MIN_LENGTH, withdrawalAsset, withdrawalAssetListSchema, WITHDRAWAL_FEE_USD_DEFAULT, type PayoutProviderId, type WithdrawalAssetId } from '@terrafund/contracts';
import type { ProviderName } from './modules/payments';

/**
 * The environment, parsed once at boot (conventions: nothing else reads process.env).
 * A wrong value stops the server with a message naming the variable.
 */
const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);
const booleanFlag = z.preprocess(
  emptyToUndefined,
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
    .optional()
    .transform((v) => v === 'true' || v === '1' || v === 'yes'),
);

/** A credential: surrounding whitespace (a stray space in an env file) is dropped, and blank means unset. */
const optionalText = z.preprocess((value) => (typeof value === 'string' ? value.trim() || undefined : value), z.string().optional());
const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
const minutes = (fallback: number, max: number) =>
  z.preprocess(
    emptyToUndefined,
    z.coerce
      .number()
      .int(`must be a whole number of minutes from 1 to ${max}`)
      .min(1, `must be a whole number of minutes from 1 to ${max}`)
      .max(max, `must be a whole number of minutes from 1 to ${max}`)
      .default(fallback),
  );

/**
 * TRUST_PROXY: unset or false (the socket address counts), a hop count (the right-most N hops are our
 * proxies), or the proxies' addresses/CIDRs. Plain `true` trusts every hop, so a client can name any address
 * in X-Forwarded-For; it is kept distinguishable (`true`) so production can refuse it.
 */
export type TrustProxy = boolean | number | string[];
/** proxy-addr's names for address ranges, accepted in a TRUST_PROXY list beside addresses and CIDRs. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];
const isProxyAddress = (entry: string) => {
  if (PROXY_RANGE_NAMES.includes(entry) || isIP(entry) !== 0) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0 || bits === undefined || !/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
};
const trustProxySetting = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .optional()
    .transform((raw, ctx): TrustProxy => {
      const value = raw?.trim().toLowerCase();
      if (value === undefined || value === 'false' || value === '0') return false;
      if (value === 'true') return true;
      if (/^\d+$/.test(value) && Number(value) <= 100) return Number(value);
      const entries = value.split(',').map((entry) => entry.trim()).filter(Boolean);
      if (entries.length > 0 && entries.every(isProxyAddress)) return entries;
      ctx.addIssue({
        code: 'custom',
        message: 'must be false, a hop count (e.g. 1) or a comma-separated list of proxy addresses/CIDRs (e.g. 10.0.0.0/8)',
      });
      return z.NEVER;
    }),
);

/**
 * Fastify's trustProxy for a TRUST_PROXY setting. A hop count is a function: Fastify itself treats a bare
 * number as "trust nothing" (it cannot check that the peer is a proxy), which would count every client as the
 * proxy's address. With N hops the N right-most X-Forwarded-For entries were written by our own proxies, so
 * whatever a client forges to their left is never the counted address. The operator's promise is that the
 * app is reachable only through those proxies; a list of their addresses does not need that promise.
 */
export function fastifyTrustProxy(setting: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return setting;
}

const PAYMENT_PROVIDERS = ['sandbox', 'btcpay', 'nowpayments'] as const satisfies readonly ProviderName[];
export const PAYOUT_PROVIDER_NAMES = ['sandbox', 'btcpay', 'nowpayments', 'manual'] as const satisfies readonly PayoutProviderId[];
/** What each payout provider needs besides its payment settings (BTCPay's and NOWPayments' are shared). */
const requiredByPayoutProvider = {
  sandbox: [],
  manual: [],
  btcpay: ['BTCPAY_URL', 'BTCPAY_API_KEY', 'BTCPAY_STORE_ID', 'BTCPAY_WEBHOOK_SECRET'],
  nowpayments: ['NOWPAYMENTS_API_KEY', 'NOWPAYMENTS_IPN_SECRET', 'NOWPAYMENTS_EMAIL', 'NOWPAYMENTS_PASSWORD', 'NOWPAYMENTS_2FA_SECRET'],
} as const satisfies Record<PayoutProviderId, readonly string[]>;
/** The coins each payout provider can send (BTCPay Server: on-chain BTC and LTC only). */
export const payoutProviderSends = (provider: PayoutProviderId, asset: WithdrawalAssetId) =>
  provider !== 'btcpay' || withdrawalAsset(asset).btcpayPayoutMethod !== undefined;

/** A USD amount setting, as a number with at most two decimals, within [min, max]. */
const usdSetting = (fallback: number, min: number, max: number) =>
  z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: `must be a USD amount from ${min} to ${max}` })
      .min(min, `must be a USD amount from ${min} to ${max}`)
      .max(max, `must be a USD amount from ${min} to ${max}`)
      .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, 'must have at most two decimals')
      .default(fallback),
  );
/** What each real provider cannot work without (docs/product.md §12 Running it). */
const requiredByProvider = {
  sandbox: [],
  btcpay: ['BTCPAY_URL', 'BTCPAY_API_KEY', 'BTCPAY_STORE_ID', 'BTCPAY_WEBHOOK_SECRET'],
  nowpayments: ['NOWPAYMENTS_API_KEY', 'NOWPAYMENTS_IPN_SECRET'],
} as const satisfies Record<ProviderName, readonly string[]>;

export const envSchema = z
  .object({
    NODE_ENV: z.preprocess(emptyToUndefined, z.enum(['development', 'production', 'test']).default('development')),
    PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(65535).default(3000)),
    HOST: z.preprocess(emptyToUndefined, z.string().default('0.0.0.0')),
    DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./data')),
    DATABASE_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
        .optional(),
    ),
    PUBLIC_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional()),
    APP_SECRET: z.preprocess(emptyToUndefined, z.string().min(32, 'must be at least 32 characters').optional()),
    SMTP_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
        .optional(),
    ),
    MAIL_FROM: z.preprocess(emptyToUndefined, z.string().default('Terrafund <no-reply@terrafund.local>')),
    ADMIN_EMAIL: z.preprocess(emptyToUndefined, z.string().regex(EMAIL_PATTERN, 'must be an e-mail address').optional()),
    ADMIN_PASSWORD: z.preprocess(
      emptyToUndefined,
      z.string().min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`).optional(),
    ),
    CONTACT_EMAIL: z.preprocess(emptyToUndefined, z.string().default(DEFAULT_CONTACT.email)),
    CONTACT_PHONE: z.preprocess(emptyToUndefined, z.string().default(DEFAULT_CONTACT.phone)),
    TRUST_PROXY: trustProxySetting,
    ADMIN_PROMOTE: booleanFlag,
    // Unset means "on in production, off elsewhere", so it stays undefined here (loadConfig decides).
    REQUIRE_ADMIN_2FA: z.preprocess(
      emptyToUndefined,
      z
        .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
        .optional()
        .transform((v) => (v === undefined ? undefined : v === 'true' || v === '1' || v === 'yes')),
    ),
    REDIS_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
        .optional(),
    ),
    PAYOUT_TIME: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a UTC time as HH:MM, e.g. 00:00')
        .default('00:00'),
    ),
    LOG_LEVEL: z.preprocess(
      emptyToUndefined,
      z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    ),
    PAYMENT_PROVIDER: z.preprocess(
      emptyToUndefined,
      z.enum(PAYMENT_PROVIDERS, { error: 'must be sandbox, btcpay or nowpayments' }).default('sandbox'),
    ),
    BTCPAY_URL: z.preprocess(emptyToUndefined, httpUrl.optional()),
    BTCPAY_API_KEY: optionalText,
    BTCPAY_STORE_ID: optionalText,
    BTCPAY_WEBHOOK_SECRET: optionalText,
    NOWPAYMENTS_API_URL: z.preprocess(emptyToUndefined, httpUrl.default('https://api.nowpayments.io')),
    NOWPAYMENTS_API_KEY: optionalText,
    NOWPAYMENTS_IPN_SECRET: optionalText,
    SANDBOX_EXPIRY_MINUTES: minutes(30, 24 * 60),
    // Money out (issue 32): the coins paid out, the fee, the limits, and who sends the payouts.
    WITHDRAWAL_ASSETS: z.preprocess(emptyToUndefined, withdrawalAssetListSchema.default([...DEFAULT_WITHDRAWAL_ASSETS])),
    // The fee is kept from the amount: below the 25 USD minimum, so the member always receives something.
    WITHDRAWAL_FEE_USD: usdSetting(WITHDRAWAL_FEE_USD_DEFAULT, 0, MIN_WITHDRAWAL_USD - 1),
    WITHDRAWAL_DAILY_LIMIT_USD: usdSetting(10_000, MIN_WITHDRAWAL_USD, 10_000_000),
    WITHDRAWAL_DUAL_APPROVAL_USD: usdSetting(5_000, MIN_WITHDRAWAL_USD, 10_000_000),
    PAYOUT_PROVIDER: z.preprocess(
      emptyToUndefined,
      z.enum(PAYOUT_PROVIDER_NAMES, { error: 'must be sandbox, btcpay, nowpayments or manual' }).default('sandbox'),
    ),
    NOWPAYMENTS_EMAIL: optionalText,
    NOWPAYMENTS_PASSWORD: optionalText,
    NOWPAYMENTS_2FA_SECRET: z.preprocess(
      (value) => (typeof value === 'string' ? value.replace(/\s+/g, '').toUpperCase() || undefined : value),
      z.string().regex(/^[A-Z2-7]+=*$/, 'must be the base32 secret of the account\'s authenticator (A-Z, 2-7)').min(16, 'must be the base32 secret of the account\'s authenticator (at least 16 characters)').optional(),
    ),
    SANDBOX_PAYOUT_SECONDS: z.preprocess(
      emptyToUndefined,
      z.coerce.number().int('must be a whole number of seconds from 0 to 3600').min(0, 'must be a whole number of seconds from 0 to 3600').max(3600, 'must be a whole number of seconds from 0 to 3600').default(3),
    ),
    INVOICE_EXPIRY_MINUTES: minutes(60, 7 * 24 * 60),
    // Issue 34: how long a closed account's KYC record and documents are kept (anti-money-laundering), in days.
    KYC_RETENTION_DAYS: z.preprocess(
      emptyToUndefined,
      z.coerce
        .number()
        .int('must be a whole number of days from 1 to 36500')
        .min(1, 'must be a whole number of days from 1 to 36500')
        .max(36500, 'must be a whole number of days from 1 to 36500')
        .default(KYC_RETENTION_DAYS_DEFAULT),
    ),
    // Scale-out (issue 16): files in an S3-compatible bucket, and the token guarding GET /metrics.
    S3_BUCKET: optionalText,
    S3_ENDPOINT: z.preprocess(emptyToUndefined, httpUrl.optional()),
    S3_REGION: z.preprocess(emptyToUndefined, z.string().default('us-east-1')),
    S3_ACCESS_KEY_ID: optionalText,
    S3_SECRET_ACCESS_KEY: optionalText,
    S3_FORCE_PATH_STYLE: booleanFlag,
    METRICS_TOKEN: optionalText,
    // A listener of its own for GET /metrics (plugins/metrics.ts), off the public port.
    METRICS_PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(65535).optional()),
    METRICS_HOST: z.preprocess(emptyToUndefined, z.string().default('127.0.0.1')),
    DATABASE_POOL_SIZE: z.preprocess(
      emptyToUndefined,
      z.coerce.number().int('must be a whole number from 1 to 100').min(1, 'must be a whole number from 1 to 100').max(100, 'must be a whole number from 1 to 100').default(10),
    ),
  })
  .superRefine((env, ctx) => {
    if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'],
        message: 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together',
      });
    }
    for (const name of requiredByProvider[env.PAYMENT_PROVIDER]) {
      if (env[name] === undefined) {
        ctx.addIssue({ code: 'custom', path: [name], message: `is required when PAYMENT_PROVIDER=${env.PAYMENT_PROVIDER}` });
      }
    }
    for (const name of requiredByPayoutProvider[env.PAYOUT_PROVIDER]) {
      if (env[name] === undefined && !(requiredByProvider[env.PAYMENT_PROVIDER] as readonly string[]).includes(name)) {
        ctx.addIssue({ code: 'custom', path: [name], message: `is required when PAYOUT_PROVIDER=${env.PAYOUT_PROVIDER}` });
      }
    }
    if (env.METRICS_PORT !== undefined && env.METRICS_PORT === env.PORT) {
      ctx.addIssue({ code: 'custom', path: ['METRICS_PORT'], message: 'must differ from PORT: the metrics listener is kept off the public port' });
    }
    if (Boolean(env.ADMIN_EMAIL) !== Boolean(env.ADMIN_PASSWORD)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.ADMIN_EMAIL ? 'ADMIN_PASSWORD' : 'ADMIN_EMAIL'],
        message: 'ADMIN_EMAIL and ADMIN_PASSWORD must be set together',
      });
    }
  });

/** The parsed environment, before loadConfig shapes it into Config. */
export type EnvSettings = z.output<typeof envSchema>;

/** One line for each wrong variable, each naming it: `Invalid configuration: PORT: must be …`. */
export function schemaProblems(env: NodeJS.ProcessEnv): string[] {
  const parsed = envSchema.safeParse(env);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => `Invalid configuration: ${issue.path.join('.') || '(environment)'}: ${issue.message}`);
}

/** A variable as set: surrounding whitespace dropped, blank meaning unset. */
export const setting = (env: NodeJS.ProcessEnv, name: string) => env[name]?.trim() || undefined;

import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_CONTACT, EMAIL_PATTERN, PASSWORD_MIN_LENGTH } from '@terrafund/contracts';
import type { RateLimitRule } from './lib/rate-limiter';
import type { ProviderName } from './modules/payments/provider';

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
type TrustProxy = boolean | number | string[];
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
/** What each real provider cannot work without (docs/product.md §12 Running it). */
const requiredByProvider = {
  sandbox: [],
  btcpay: ['BTCPAY_URL', 'BTCPAY_API_KEY', 'BTCPAY_STORE_ID', 'BTCPAY_WEBHOOK_SECRET'],
  nowpayments: ['NOWPAYMENTS_API_KEY', 'NOWPAYMENTS_IPN_SECRET'],
} as const satisfies Record<ProviderName, readonly string[]>;

const envSchema = z
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
    INVOICE_EXPIRY_MINUTES: minutes(60, 7 * 24 * 60),
    // Scale-out (issue 16): files in an S3-compatible bucket, and the token guarding GET /metrics.
    S3_BUCKET: optionalText,
    S3_ENDPOINT: z.preprocess(emptyToUndefined, httpUrl.optional()),
    S3_REGION: z.preprocess(emptyToUndefined, z.string().default('us-east-1')),
    S3_ACCESS_KEY_ID: optionalText,
    S3_SECRET_ACCESS_KEY: optionalText,
    S3_FORCE_PATH_STYLE: booleanFlag,
    METRICS_TOKEN: optionalText,
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
    if (Boolean(env.ADMIN_EMAIL) !== Boolean(env.ADMIN_PASSWORD)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.ADMIN_EMAIL ? 'ADMIN_PASSWORD' : 'ADMIN_EMAIL'],
        message: 'ADMIN_EMAIL and ADMIN_PASSWORD must be set together',
      });
    }
  });

export type RateLimits = {
  /** Route limits (@fastify/rate-limit): requests per client address, or per account where named so. */
  loginPerAddress: RateLimitRule;
  register: RateLimitRule;
  registerPerAccount: RateLimitRule;
  verifyPerAddress: RateLimitRule;
  resendPerAddress: RateLimitRule;
  forgotPerAccount: RateLimitRule;
  forgotPerAddress: RateLimitRule;
  resetPerAddress: RateLimitRule;
  changePasswordPerAccount: RateLimitRule;
  /** Failed sign-ins (the throttle store): per account and address together, per address, per account. */
  loginFailuresPerPair: RateLimitRule;
  loginFailuresPerAddress: RateLimitRule;
  loginFailuresPerAccount: RateLimitRule;
};

/**
 * Per-address limits are generous (many people can share one address behind a NAT). Guessing at one account
 * is stopped per account-and-address pair, so an attacker's failures never lock the owner out elsewhere; the
 * account-wide limit sits far above it (NIST SP 800-63B: at most 100 failures before a lockout) and only
 * slows a guesser spread over many addresses.
 */
export const defaultRateLimits: RateLimits = {
  loginPerAddress: { limit: 300, windowSeconds: 15 * 60 },
  register: { limit: 100, windowSeconds: 60 * 60 },
  // Each registration of a taken address mails its owner: no more than a handful, whoever sends them.
  registerPerAccount: { limit: 10, windowSeconds: 15 * 60 },
  verifyPerAddress: { limit: 300, windowSeconds: 15 * 60 },
  resendPerAddress: { limit: 100, windowSeconds: 15 * 60 },
  forgotPerAccount: { limit: 5, windowSeconds: 15 * 60 },
  forgotPerAddress: { limit: 100, windowSeconds: 15 * 60 },
  resetPerAddress: { limit: 100, windowSeconds: 15 * 60 },
  changePasswordPerAccount: { limit: 10, windowSeconds: 15 * 60 },
  loginFailuresPerPair: { limit: 10, windowSeconds: 15 * 60 },
  loginFailuresPerAddress: { limit: 100, windowSeconds: 15 * 60 },
  loginFailuresPerAccount: { limit: 100, windowSeconds: 60 * 60 },
};

/** Idle limits of issue 12 (12 h, 7 days remembered, 30 minutes for admins), capped at 30 days in all. */
export const defaultSessionTtl: Config['sessionTtl'] = {
  default: 12 * 3600,
  remembered: 7 * 24 * 3600,
  admin: 30 * 60,
  absolute: 30 * 24 * 3600,
};

type BtcpaySettings = { url: string; apiKey: string; storeId: string; webhookSecret: string };
type NowpaymentsSettings = { apiUrl: string; apiKey: string; ipnSecret: string };

/**
 * The payment provider and what it needs; a real provider's settings are present exactly when it is chosen.
 * The sandbox signs its notifications with a key derived from APP_SECRET (lib/crypto.ts), so it has none.
 */
export type PaymentSettings = {
  /** How long a real provider's invoice stays payable; past it (plus a grace) the deposit fails. */
  invoiceExpiryMinutes: number;
  /** The sandbox's own, usually shorter, expiry, to watch an expiry happen while developing. */
  sandboxExpiryMinutes: number;
} & (
  | { provider: 'sandbox' }
  | { provider: 'btcpay'; btcpay: BtcpaySettings }
  | { provider: 'nowpayments'; nowpayments: NowpaymentsSettings }
);

/**
 * Where uploaded files live: an S3-compatible bucket when S3_BUCKET is set (every instance then sees the same
 * files), else the local disk under DATA_DIR/uploads. Without keys the SDK's own chain (instance role, env) is used.
 */
export type S3Settings = {
  bucket: string;
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
  credentials?: { accessKeyId: string; secretAccessKey: string };
};

export type Config = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** Connections each instance keeps to PostgreSQL at most (docs/operations.md: the pool size rule). */
  databasePoolSize: number;
  publicUrl: string;
  appSecret: string;
  smtpUrl?: string;
  mailFrom: string;
  admin?: { email: string; password: string };
  /** ADMIN_PROMOTE: the operator's explicit consent that the bootstrap promote an existing member. */
  adminPromote: boolean;
  /** REQUIRE_ADMIN_2FA: admin routes answer 403 TWO_FACTOR_REQUIRED until the admin has turned 2FA on. */
  requireAdmin2fa: boolean;
  /** REDIS_URL: rate limits and throttles shared by every instance; in process memory without it. */
  redisUrl?: string;
  /** Prefix of every Redis key this app writes (tests give each app its own). */
  redisKeyPrefix: string;
  contact: { email: string; phone: string };
  trustProxy: TrustProxy;
  logLevel: string;
  /** When each business day's dividend is due (UTC, HH:MM). */
  payoutTime: string;
  rateLimits: RateLimits;
  /**
   * Seconds a session may stay unused (with and without remember-me, and for admins whatever was ticked),
   * and the most it lasts however busy it is.
   */
  sessionTtl: { remembered: number; default: number; admin: number; absolute: number };
  /** Where the built web app lives; served when present. */
  webDistDir?: string;
  /** Background jobs (mail outbox worker); tests drive jobs by hand. */
  runJobs: boolean;
  payments: PaymentSettings;
  /** Set when files go to an S3-compatible bucket (S3_BUCKET). */
  s3?: S3Settings;
  /** When set, GET /metrics needs `Authorization: Bearer <token>`. */
  metricsToken?: string;
};

export class ConfigError extends Error {}

/** One line for each wrong variable, each naming it: `Invalid configuration: PORT: must be …`. */
function schemaProblems(env: NodeJS.ProcessEnv): string[] {
  const parsed = envSchema.safeParse(env);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => `Invalid configuration: ${issue.path.join('.') || '(environment)'}: ${issue.message}`);
}

/** A variable as set: surrounding whitespace dropped, blank meaning unset. */
const setting = (env: NodeJS.ProcessEnv, name: string) => env[name]?.trim() || undefined;
const LOCAL_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * What NODE_ENV=production refuses to start with, one line each naming the variable (docs/security.md): each
 * would reopen a hole that development tolerates. Read from the raw variables, so `npm run check-config`
 * can give the verdict for any environment without starting anything or writing a secret to disk.
 */
function productionRefusals(env: NodeJS.ProcessEnv): string[] {
  const refusals: string[] = [];
  const refuse = (name: string, why: string) => refusals.push(`NODE_ENV=production refuses to start: ${name} ${why}`);

  const provider = setting(env, 'PAYMENT_PROVIDER');
  if (provider === undefined || provider === 'sandbox') {
    refuse(
      'PAYMENT_PROVIDER',
      `is ${provider ?? 'unset (sandbox)'}: the built-in sandbox settles packs without any payment; set PAYMENT_PROVIDER=btcpay or nowpayments`,
    );
  }
  if (setting(env, 'SMTP_URL') === undefined) {
    refuse('SMTP_URL', 'is not set: mail (codes and reset links included) would only be printed to the log; set an smtp:// or smtps:// URL');
  }
  const secret = setting(env, 'APP_SECRET');
  if (secret === undefined) {
    refuse('APP_SECRET', 'is not set: set a random secret of at least 32 bytes, the same on every server');
  } else if (Buffer.byteLength(secret, 'utf8') < 32) {
    refuse('APP_SECRET', `is ${Buffer.byteLength(secret, 'utf8')} bytes long: it must be at least 32 bytes`);
  }
  const publicUrl = setting(env, 'PUBLIC_URL');
  // Unset, it is http://localhost:PORT, which is local.
  if (publicUrl !== undefined && !isSafePublicUrl(publicUrl)) {
    refuse('PUBLIC_URL', `is ${publicUrl}: mailed links and payment returns need an https:// address (only localhost and 127.0.0.1 may use http)`);
  }
  if (setting(env, 'TRUST_PROXY')?.toLowerCase() === 'true') {
    refuse(
      'TRUST_PROXY',
      'is true, which trusts any X-Forwarded-For a client sends: set the number of proxy hops (e.g. 1) or the proxies\' addresses/CIDRs',
    );
  }
  return refusals;
}

/**
 * What production accepts but an operator should know about, one line each: printed by check-config and by
 * the server at start.
 */
export function productionWarnings(env: NodeJS.ProcessEnv): string[] {
  const warnings: string[] = [];
  const require2fa = setting(env, 'REQUIRE_ADMIN_2FA')?.toLowerCase();
  if (require2fa === 'false' || require2fa === '0' || require2fa === 'no') {
    warnings.push('REQUIRE_ADMIN_2FA is false: admins can use admin routes without two-factor sign-in (default in production: true)');
  }
  return warnings;
}

function isSafePublicUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || (url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname));
  } catch {
    return false; // the schema names it as invalid too
  }
}

/**
 * Every reason the server would not start with `env` under NODE_ENV=production: the schema's complaints and
 * the production refusals, a variable named once (a too-short APP_SECRET is one problem, not two).
 */
export function productionVerdict(env: NodeJS.ProcessEnv): string[] {
  const invalid = schemaProblems({ ...env, NODE_ENV: 'production' });
  const named = (line: string, name: string) => line.includes(` ${name}:`) || line.includes(` ${name} `);
  const refusals = productionRefusals(env).filter((refusal) => {
    const name = /refuses to start: ([A-Z_]+) /.exec(refusal)?.[1] ?? '';
    return !invalid.some((line) => named(line, name));
  });
  return [...invalid, ...refusals];
}

/**
 * Parses the environment; throws ConfigError whose message names every wrong variable, one line each. With
 * NODE_ENV=production it also refuses every setting productionRefusals lists. Nothing else chooses production:
 * without NODE_ENV the server is the embedded development default.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const production = setting(env, 'NODE_ENV') === 'production';
  const problems = production ? productionVerdict(env) : schemaProblems(env);
  if (problems.length > 0) throw new ConfigError(problems.join('\n'));
  const e = envSchema.parse(env);
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    appSecret: e.APP_SECRET ?? loadOrCreateSecret(dataDir),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    admin: e.ADMIN_EMAIL && e.ADMIN_PASSWORD ? { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD } : undefined,
    adminPromote: e.ADMIN_PROMOTE,
    requireAdmin2fa: e.REQUIRE_ADMIN_2FA ?? e.NODE_ENV === 'production',
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: 'terrafund:',
    contact: { email: e.CONTACT_EMAIL, phone: e.CONTACT_PHONE },
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    payoutTime: e.PAYOUT_TIME,
    rateLimits: defaultRateLimits,
    sessionTtl: defaultSessionTtl,
    webDistDir: path.resolve(import.meta.dirname, '../../web/dist'),
    runJobs: true,
    payments: paymentSettings(e),
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION,
          forcePathStyle: e.S3_FORCE_PATH_STYLE,
          credentials:
            e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
              ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
              : undefined,
        }
      : undefined,
    metricsToken: e.METRICS_TOKEN,
  };
}

function paymentSettings(e: z.output<typeof envSchema>): PaymentSettings {
  const expiry = { invoiceExpiryMinutes: e.INVOICE_EXPIRY_MINUTES, sandboxExpiryMinutes: e.SANDBOX_EXPIRY_MINUTES };
  // The schema's refinement has already refused a chosen provider with a missing setting.
  const required = (value: string | undefined) => value!;
  switch (e.PAYMENT_PROVIDER) {
    case 'btcpay':
      return {
        ...expiry,
        provider: 'btcpay',
        btcpay: {
          url: required(e.BTCPAY_URL).replace(/\/+$/, ''),
          apiKey: required(e.BTCPAY_API_KEY),
          storeId: required(e.BTCPAY_STORE_ID),
          webhookSecret: required(e.BTCPAY_WEBHOOK_SECRET),
        },
      };
    case 'nowpayments':
      return {
        ...expiry,
        provider: 'nowpayments',
        nowpayments: {
          apiUrl: e.NOWPAYMENTS_API_URL.replace(/\/+$/, ''),
          apiKey: required(e.NOWPAYMENTS_API_KEY),
          ipnSecret: required(e.NOWPAYMENTS_IPN_SECRET),
        },
      };
    default:
      return { ...expiry, provider: 'sandbox' };
  }
}

/**
 * Without APP_SECRET a random one is made once and kept under DATA_DIR, so sessions and queued mail
 * survive a restart of a single server. Several servers must share an explicit APP_SECRET.
 */
function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'app-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

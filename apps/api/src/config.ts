import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { WithdrawalAssetId } from '@terrafund/contracts';
import type { RateLimitRule } from './lib/rate-limiter';
import { envSchema, schemaProblems, setting, type EnvSettings, type TrustProxy } from './config-env';
import { productionVerdict } from './config-production';

/*
 * The server's configuration: the environment (parsed by config-env.ts, judged for production by
 * config-production.ts) shaped once at boot into Config (conventions: nothing else reads process.env).
 */
export { fastifyTrustProxy, payoutProviderSends } from './config-env';
export { productionVerdict, productionWarnings } from './config-production';

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
  /** The provider checkout's return page, which asks the provider about the invoice. */
  paymentReturnPerAddress: RateLimitRule;
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
  // A member comes back from a checkout a few times at most; each return may cost a call to the provider's API.
  paymentReturnPerAddress: { limit: 30, windowSeconds: 60 },
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
 * Money out (issue 32): the coins paid out, the flat fee, the limits (integer cents), and the payout provider
 * with what it needs. BTCPay payouts use the payment settings' server and store; NOWPayments adds the
 * account's e-mail, password and 2FA secret for its payout API.
 */
export type WithdrawalSettings = {
  assets: WithdrawalAssetId[];
  feeCents: number;
  dailyLimitCents: number;
  dualApprovalCents: number;
  sandboxPayoutSeconds: number;
} & (
  | { payoutProvider: 'sandbox' | 'manual' }
  | { payoutProvider: 'btcpay'; btcpay: BtcpaySettings }
  | { payoutProvider: 'nowpayments'; nowpayments: NowpaymentsSettings & { email: string; password: string; twoFactorSecret: string } }
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
  /** KYC_RETENTION_DAYS: a closed account's KYC record and documents are deleted this many days after closing. */
  kycRetentionDays: number;
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
  withdrawals: WithdrawalSettings;
  /** Set when files go to an S3-compatible bucket (S3_BUCKET). */
  s3?: S3Settings;
  /** When set, GET /metrics needs `Authorization: Bearer <token>`. */
  metricsToken?: string;
  /** METRICS_HOST/METRICS_PORT: GET /metrics on a listener of its own, and not on the public port. */
  metricsListener?: { host: string; port: number };
};

export class ConfigError extends Error {}

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
    kycRetentionDays: e.KYC_RETENTION_DAYS,
    rateLimits: defaultRateLimits,
    sessionTtl: defaultSessionTtl,
    webDistDir: path.resolve(import.meta.dirname, '../../web/dist'),
    runJobs: true,
    payments: paymentSettings(e),
    withdrawals: withdrawalSettings(e),
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
    metricsListener: e.METRICS_PORT === undefined ? undefined : { host: e.METRICS_HOST, port: e.METRICS_PORT },
  };
}

// The schema's refinement has already refused a chosen provider with a missing setting.
const required = (value: string | undefined) => value!;

/** The BTCPay store both the payments and the payouts use. */
const btcpaySettings = (e: EnvSettings) => ({
  url: required(e.BTCPAY_URL).replace(/\/+$/, ''),
  apiKey: required(e.BTCPAY_API_KEY),
  storeId: required(e.BTCPAY_STORE_ID),
  webhookSecret: required(e.BTCPAY_WEBHOOK_SECRET),
});

/** The NOWPayments account both the payments and the payouts use. */
const nowpaymentsSettings = (e: EnvSettings) => ({
  apiUrl: e.NOWPAYMENTS_API_URL.replace(/\/+$/, ''),
  apiKey: required(e.NOWPAYMENTS_API_KEY),
  ipnSecret: required(e.NOWPAYMENTS_IPN_SECRET),
});

function paymentSettings(e: EnvSettings): PaymentSettings {
  const expiry = { invoiceExpiryMinutes: e.INVOICE_EXPIRY_MINUTES, sandboxExpiryMinutes: e.SANDBOX_EXPIRY_MINUTES };
  switch (e.PAYMENT_PROVIDER) {
    case 'btcpay':
      return { ...expiry, provider: 'btcpay', btcpay: btcpaySettings(e) };
    case 'nowpayments':
      return { ...expiry, provider: 'nowpayments', nowpayments: nowpaymentsSettings(e) };
    default:
      return { ...expiry, provider: 'sandbox' };
  }
}

const toCents = (usd: number) => Math.round(usd * 100);

function withdrawalSettings(e: EnvSettings): WithdrawalSettings {
  const base = {
    assets: e.WITHDRAWAL_ASSETS,
    feeCents: toCents(e.WITHDRAWAL_FEE_USD),
    dailyLimitCents: toCents(e.WITHDRAWAL_DAILY_LIMIT_USD),
    dualApprovalCents: toCents(e.WITHDRAWAL_DUAL_APPROVAL_USD),
    sandboxPayoutSeconds: e.SANDBOX_PAYOUT_SECONDS,
  };
  switch (e.PAYOUT_PROVIDER) {
    case 'btcpay':
      return { ...base, payoutProvider: 'btcpay', btcpay: btcpaySettings(e) };
    case 'nowpayments':
      return {
        ...base,
        payoutProvider: 'nowpayments',
        nowpayments: {
          ...nowpaymentsSettings(e),
          email: required(e.NOWPAYMENTS_EMAIL),
          password: required(e.NOWPAYMENTS_PASSWORD),
          twoFactorSecret: required(e.NOWPAYMENTS_2FA_SECRET),
        },
      };
    default:
      return { ...base, payoutProvider: e.PAYOUT_PROVIDER };
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

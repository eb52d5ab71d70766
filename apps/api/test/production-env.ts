import { randomBytes } from 'node:crypto';
import { FAKE_BTCPAY } from './fake-http-server';

/** Everything NODE_ENV=production needs: a real provider, SMTP, an explicit secret, an https address, a metrics token. */
export const PRODUCTION_ENV: Readonly<Record<string, string>> = {
  NODE_ENV: 'production',
  PAYMENT_PROVIDER: 'btcpay',
  // Admins send withdrawals themselves and type the hash (the sandbox is refused in production).
  PAYOUT_PROVIDER: 'manual',
  BTCPAY_URL: 'https://btcpay.example.com',
  BTCPAY_API_KEY: 'api-key',
  BTCPAY_STORE_ID: 'store-1',
  BTCPAY_WEBHOOK_SECRET: 'webhook-secret-0123456789',
  SMTP_URL: 'smtps://user:pw@mail.example.com:465',
  APP_SECRET: 'a-production-secret-of-more-than-32-bytes-0123456789',
  PUBLIC_URL: 'https://invest.example.com',
  METRICS_TOKEN: 'a-metrics-token-for-the-scraper-0123',
};

/**
 * The production form a spawned test instance runs in against the backends a test started: NODE_ENV=production with
 * the fake BTCPay (fake-http-server.ts), manual payouts, a fresh APP_SECRET, an https PUBLIC_URL, an admin made at
 * startup and a metrics token (production refuses to serve /metrics unguarded on the public port, issue 30).
 */
export function productionInstanceEnv(backends: {
  databaseUrl: string;
  redisUrl: string;
  smtpUrl: string;
  btcpayUrl: string;
  s3Env: Record<string, string>;
}) {
  const admin = { email: `admin-${randomBytes(3).toString('hex')}@terrafund.test`, password: 'Quiet-Lantern-47!' };
  const metricsToken = randomBytes(24).toString('base64url');
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    DATABASE_URL: backends.databaseUrl,
    REDIS_URL: backends.redisUrl,
    APP_SECRET: randomBytes(36).toString('base64url'),
    PUBLIC_URL: 'https://invest.terrafund.test',
    SMTP_URL: backends.smtpUrl,
    MAIL_FROM: 'Terrafund <no-reply@terrafund.test>',
    PAYMENT_PROVIDER: 'btcpay',
    PAYOUT_PROVIDER: 'manual',
    BTCPAY_URL: backends.btcpayUrl,
    BTCPAY_API_KEY: FAKE_BTCPAY.apiKey,
    BTCPAY_STORE_ID: FAKE_BTCPAY.storeId,
    BTCPAY_WEBHOOK_SECRET: FAKE_BTCPAY.webhookSecret,
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    // The tests drive admin routes with a password sign-in; two-factor sign-in has its own tests.
    REQUIRE_ADMIN_2FA: 'false',
    METRICS_TOKEN: metricsToken,
    LOG_LEVEL: 'warn',
    ...backends.s3Env,
  };
  return { env, admin, metricsToken };
}

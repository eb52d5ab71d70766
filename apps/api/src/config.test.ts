import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../test/temp-dirs';
import { ConfigError, defaultRateLimits, fastifyTrustProxy, loadConfig } from './config';

const SECRET = 'a-test-secret-that-is-long-enough-0123456789';

/** loadConfig with only the given variables; APP_SECRET is set so that nothing is written under ./data. */
const load = (env: Record<string, string>) => loadConfig({ APP_SECRET: SECRET, ...env });

function configError(env: Record<string, string>): ConfigError {
  try {
    load(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  const tempDir = useTempDirs('tf-config-');

  it('defaults to port 3000, http://localhost:3000 and ./data', () => {
    const config = load({});
    expect(config.port).toBe(3000);
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.dataDir).toBe(path.resolve('./data'));
    expect(path.isAbsolute(config.dataDir)).toBe(true);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.smtpUrl).toBeUndefined();
    expect(config.admin).toBeUndefined();
    expect(config.trustProxy).toBe(false);
    expect(config.env).toBe('development');
    expect(config.appSecret).toBe(SECRET);
    expect(config.rateLimits).toEqual(defaultRateLimits);
    expect(config.sessionTtl.default).toBeLessThan(config.sessionTtl.remembered);
  });

  it('builds the default PUBLIC_URL from PORT and strips a trailing slash from a given one', () => {
    expect(load({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    expect(load({ PUBLIC_URL: 'https://invest.example.com/' }).publicUrl).toBe('https://invest.example.com');
  });

  it('treats empty variables as unset', () => {
    const config = load({ PORT: '', PUBLIC_URL: '', DATABASE_URL: '', ADMIN_EMAIL: '', ADMIN_PASSWORD: '' });
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.admin).toBeUndefined();
  });

  it('reads the variables it is given', () => {
    const dataDir = tempDir();
    const config = load({
      PORT: '4000',
      DATA_DIR: dataDir,
      DATABASE_URL: 'postgresql://user:pw@db:5432/terrafund',
      SMTP_URL: 'smtps://user:pw@mail.example.com:465',
      ADMIN_EMAIL: 'boss@example.com',
      ADMIN_PASSWORD: 'long-enough-1',
      TRUST_PROXY: 'true',
      NODE_ENV: 'test',
    });
    expect(config).toMatchObject({
      port: 4000,
      dataDir,
      databaseUrl: 'postgresql://user:pw@db:5432/terrafund',
      smtpUrl: 'smtps://user:pw@mail.example.com:465',
      admin: { email: 'boss@example.com', password: 'long-enough-1' },
      trustProxy: true,
      env: 'test',
    });
  });

  it.each([
    ['PORT', { PORT: 'abc' }],
    ['PAYOUT_TIME', { PAYOUT_TIME: '25:00' }],
    ['PAYOUT_TIME', { PAYOUT_TIME: 'noon' }],
    ['PORT', { PORT: '0' }],
    ['PORT', { PORT: '70000' }],
    ['PORT', { PORT: '30.5' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'not a url' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'ftp://files.example.com' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'javascript:alert(1)' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://root@localhost/terrafund' }],
    ['DATABASE_URL', { DATABASE_URL: 'localhost:5432' }],
    ['ADMIN_PASSWORD', { ADMIN_EMAIL: 'boss@example.com' }],
    ['ADMIN_EMAIL', { ADMIN_PASSWORD: 'long-enough-1' }],
    ['ADMIN_EMAIL', { ADMIN_EMAIL: 'not-an-address', ADMIN_PASSWORD: 'long-enough-1' }],
    ['ADMIN_PASSWORD', { ADMIN_EMAIL: 'boss@example.com', ADMIN_PASSWORD: 'short' }],
    ['APP_SECRET', { APP_SECRET: 'too-short' }],
    ['SMTP_URL', { SMTP_URL: 'http://mail.example.com' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'maybe' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['NODE_ENV', { NODE_ENV: 'staging' }],
    ['PAYMENT_PROVIDER', { PAYMENT_PROVIDER: 'paypal' }],
    ['PAYMENT_PROVIDER', { PAYMENT_PROVIDER: 'BTCPay' }],
    ['BTCPAY_URL', { BTCPAY_URL: 'btcpay.example.com' }],
    ['NOWPAYMENTS_API_URL', { NOWPAYMENTS_API_URL: 'ftp://api.nowpayments.io' }],
    ['SANDBOX_EXPIRY_MINUTES', { SANDBOX_EXPIRY_MINUTES: '0' }],
    ['SANDBOX_EXPIRY_MINUTES', { SANDBOX_EXPIRY_MINUTES: 'soon' }],
    ['INVOICE_EXPIRY_MINUTES', { INVOICE_EXPIRY_MINUTES: '7.5' }],
    ['INVOICE_EXPIRY_MINUTES', { INVOICE_EXPIRY_MINUTES: '100000' }],
  ])('refuses a bad %s with a ConfigError naming it', (variable, env) => {
    const error = configError(env);
    expect(error.message).toContain(`${variable}:`);
  });

  it('defaults to the built-in sandbox payment provider, needing no payment settings', () => {
    expect(load({}).payments).toEqual({ provider: 'sandbox', invoiceExpiryMinutes: 60, sandboxExpiryMinutes: 30 });
    expect(load({ PAYMENT_PROVIDER: '', SANDBOX_EXPIRY_MINUTES: '2', INVOICE_EXPIRY_MINUTES: '90' }).payments).toEqual({
      provider: 'sandbox',
      invoiceExpiryMinutes: 90,
      sandboxExpiryMinutes: 2,
    });
  });

  it('reads BTCPay and NOWPayments settings when they are the provider', () => {
    const btcpay = {
      PAYMENT_PROVIDER: 'btcpay',
      BTCPAY_URL: 'https://btcpay.example.com/',
      BTCPAY_API_KEY: 'api-key',
      BTCPAY_STORE_ID: 'store-1',
      BTCPAY_WEBHOOK_SECRET: 'webhook-secret',
    };
    expect(load(btcpay).payments).toEqual({
      provider: 'btcpay',
      invoiceExpiryMinutes: 60,
      sandboxExpiryMinutes: 30,
      btcpay: { url: 'https://btcpay.example.com', apiKey: 'api-key', storeId: 'store-1', webhookSecret: 'webhook-secret' },
    });
    const nowpayments = { PAYMENT_PROVIDER: 'nowpayments', NOWPAYMENTS_API_KEY: 'np-key', NOWPAYMENTS_IPN_SECRET: 'ipn-secret' };
    expect(load(nowpayments).payments).toMatchObject({
      provider: 'nowpayments',
      nowpayments: { apiUrl: 'https://api.nowpayments.io', apiKey: 'np-key', ipnSecret: 'ipn-secret' },
    });
    expect(load({ ...nowpayments, NOWPAYMENTS_API_URL: 'https://api-sandbox.nowpayments.io/' }).payments).toMatchObject({
      nowpayments: { apiUrl: 'https://api-sandbox.nowpayments.io' },
    });
    // Another provider's settings are harmless when it is not the one chosen.
    expect(load({ NOWPAYMENTS_API_KEY: 'np-key' }).payments.provider).toBe('sandbox');
  });

  it('refuses to start a real provider without each of its settings, naming every missing one', () => {
    const btcpay = configError({ PAYMENT_PROVIDER: 'btcpay', BTCPAY_URL: 'https://btcpay.example.com', BTCPAY_API_KEY: ' ' });
    for (const name of ['BTCPAY_API_KEY', 'BTCPAY_STORE_ID', 'BTCPAY_WEBHOOK_SECRET']) {
      expect(btcpay.message).toContain(`${name}: is required when PAYMENT_PROVIDER=btcpay`);
    }
    expect(btcpay.message).not.toContain('BTCPAY_URL');
    const nowpayments = configError({ PAYMENT_PROVIDER: 'nowpayments', NOWPAYMENTS_API_KEY: 'np-key' });
    expect(nowpayments.message).toContain('NOWPAYMENTS_IPN_SECRET: is required when PAYMENT_PROVIDER=nowpayments');
    expect(nowpayments.message).not.toContain('NOWPAYMENTS_API_KEY');
  });


  it('keeps files on the local disk without S3_BUCKET, and reads the S3 settings with it', () => {
    expect(load({}).s3).toBeUndefined();
    expect(load({ S3_ENDPOINT: 'http://minio:9000' }).s3).toBeUndefined();
    expect(
      load({
        S3_BUCKET: 'terrafund-files',
        S3_ENDPOINT: 'http://minio:9000',
        S3_REGION: 'eu-west-1',
        S3_ACCESS_KEY_ID: ' AKIAEXAMPLE ',
        S3_SECRET_ACCESS_KEY: 'secret-key',
        S3_FORCE_PATH_STYLE: 'true',
      }).s3,
    ).toEqual({
      bucket: 'terrafund-files',
      endpoint: 'http://minio:9000',
      region: 'eu-west-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'secret-key' },
    });
    // AWS itself: the default region, virtual-hosted addressing, and the SDK's own credentials (an instance role).
    expect(load({ S3_BUCKET: 'terrafund-files' }).s3).toEqual({
      bucket: 'terrafund-files',
      endpoint: undefined,
      region: 'us-east-1',
      forcePathStyle: false,
      credentials: undefined,
    });
  });

  it.each([
    ['S3_ENDPOINT', { S3_BUCKET: 'b-files', S3_ENDPOINT: 'minio:9000' }],
    ['S3_FORCE_PATH_STYLE', { S3_BUCKET: 'b-files', S3_FORCE_PATH_STYLE: 'sometimes' }],
    ['S3_SECRET_ACCESS_KEY', { S3_BUCKET: 'b-files', S3_ACCESS_KEY_ID: 'AKIAEXAMPLE' }],
    ['S3_ACCESS_KEY_ID', { S3_BUCKET: 'b-files', S3_SECRET_ACCESS_KEY: 'secret-key' }],
  ])('refuses a bad %s with a ConfigError naming it', (variable, env) => {
    expect(configError(env).message).toContain(`${variable}:`);
  });

  it('keeps at most 10 PostgreSQL connections per instance unless DATABASE_POOL_SIZE says otherwise', () => {
    expect(load({}).databasePoolSize).toBe(10);
    expect(load({ DATABASE_POOL_SIZE: '25' }).databasePoolSize).toBe(25);
    for (const value of ['0', '101', '2.5', 'many']) expect(configError({ DATABASE_POOL_SIZE: value }).message).toContain('DATABASE_POOL_SIZE:');
  });

  it('leaves REQUIRE_ADMIN_2FA off outside production unless it is set', () => {
    expect(load({}).requireAdmin2fa).toBe(false);
    expect(load({ REQUIRE_ADMIN_2FA: 'true' }).requireAdmin2fa).toBe(true);
    expect(configError({ REQUIRE_ADMIN_2FA: 'sometimes' }).message).toMatch(/REQUIRE_ADMIN_2FA: must be true or false/);
  });

  it('reads METRICS_TOKEN (blank means none)', () => {
    expect(load({}).metricsToken).toBeUndefined();
    expect(load({ METRICS_TOKEN: '  ' }).metricsToken).toBeUndefined();
    expect(load({ METRICS_TOKEN: 'scrape-me-please' }).metricsToken).toBe('scrape-me-please');
  });

  it('names every wrong variable at once', () => {
    const error = configError({ PORT: 'abc', PUBLIC_URL: 'nope', APP_SECRET: 'short' });
    expect(error.message).toContain('PORT');
    expect(error.message).toContain('PUBLIC_URL');
    expect(error.message).toContain('APP_SECRET');
  });

  it('without APP_SECRET, creates a private secret under DATA_DIR once and keeps it', () => {
    const dataDir = path.join(tempDir(), 'nested', 'data');
    const first = loadConfig({ DATA_DIR: dataDir });
    const file = path.join(dataDir, 'app-secret');
    expect(first.appSecret.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.appSecret);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    expect(loadConfig({ DATA_DIR: dataDir }).appSecret).toBe(first.appSecret);
    expect(loadConfig({ DATA_DIR: tempDir() }).appSecret).not.toBe(first.appSecret);
  });

  describe('TRUST_PROXY, REDIS_URL, ADMIN_PROMOTE (issue 12 accounts)', () => {
    it.each([
      [undefined, false],
      ['', false],
      ['false', false],
      ['0', false],
      ['1', 1],
      ['2', 2],
      ['true', true],
      ['TRUE', true],
      ['10.0.0.1', ['10.0.0.1']],
      [' 10.0.0.0/8, 172.16.0.0/12 ,::1, fd00::/8, loopback', ['10.0.0.0/8', '172.16.0.0/12', '::1', 'fd00::/8', 'loopback']],
    ])('reads TRUST_PROXY=%s as %j', (value, expected) => {
      expect(load(value === undefined ? {} : { TRUST_PROXY: value }).trustProxy).toEqual(expected);
    });

    it.each(['yes', 'maybe', '-1', '1.5', '10.0.0.0/33', '10.0.0.1/', 'proxy.example.com', '10.0.0.1, nonsense'])(
      'refuses TRUST_PROXY=%s, naming it',
      (value) => {
        expect(configError({ TRUST_PROXY: value }).message).toContain('TRUST_PROXY:');
      },
    );

    it('turns a hop count into trust of exactly that many right-most hops (Fastify alone would trust none)', () => {
      const trust = fastifyTrustProxy(1) as (address: string, hop: number) => boolean;
      expect(trust('10.0.0.1', 0)).toBe(true);
      expect(trust('198.51.100.20', 1)).toBe(false);
      expect(fastifyTrustProxy(['10.0.0.0/8'])).toEqual(['10.0.0.0/8']);
      expect(fastifyTrustProxy(false)).toBe(false);
    });

    it('reads REDIS_URL and ADMIN_PROMOTE, off by default', () => {
      expect(load({})).toMatchObject({ redisUrl: undefined, adminPromote: false, redisKeyPrefix: 'terrafund:' });
      expect(load({ REDIS_URL: 'redis://cache:6379/2', ADMIN_PROMOTE: 'true' })).toMatchObject({
        redisUrl: 'redis://cache:6379/2',
        adminPromote: true,
      });
      expect(load({ REDIS_URL: 'rediss://user:pw@cache.example.com:6380' }).redisUrl).toBe('rediss://user:pw@cache.example.com:6380');
      expect(configError({ REDIS_URL: 'http://cache:6379' }).message).toContain('REDIS_URL:');
      expect(configError({ ADMIN_PROMOTE: 'please' }).message).toContain('ADMIN_PROMOTE:');
    });

    it('ends idle sessions after 12 hours, 7 days remembered, 30 minutes for admins, and caps them at 30 days', () => {
      expect(load({}).sessionTtl).toEqual({ default: 12 * 3600, remembered: 7 * 86_400, admin: 30 * 60, absolute: 30 * 86_400 });
    });
  });
});

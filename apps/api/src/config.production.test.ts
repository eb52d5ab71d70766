import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PRODUCTION_ENV } from '../test/production-env';
import { ConfigError, loadConfig, productionVerdict, productionWarnings } from './config';

function refusal(env: Record<string, string | undefined>): string {
  try {
    loadConfig(env as NodeJS.ProcessEnv);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error(`production accepted ${JSON.stringify(env)}`);
}

describe('NODE_ENV=production', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tf-prod-config-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('starts with a complete production configuration', () => {
    const config = loadConfig(PRODUCTION_ENV);
    expect(config).toMatchObject({ env: 'production', publicUrl: 'https://invest.example.com', payments: { provider: 'btcpay' } });
    expect(loadConfig({ ...PRODUCTION_ENV, PAYMENT_PROVIDER: 'nowpayments', NOWPAYMENTS_API_KEY: 'k', NOWPAYMENTS_IPN_SECRET: 'an-ipn-secret-of-24-chars' }).env).toBe(
      'production',
    );
  });

  it('requires admins to use two-factor sign-in unless REQUIRE_ADMIN_2FA=false says otherwise, with a warning', () => {
    expect(loadConfig(PRODUCTION_ENV).requireAdmin2fa).toBe(true);
    expect(loadConfig({ ...PRODUCTION_ENV, REQUIRE_ADMIN_2FA: 'false' }).requireAdmin2fa).toBe(false);
    expect(productionWarnings({ ...PRODUCTION_ENV, REQUIRE_ADMIN_2FA: 'false' })).toEqual([expect.stringMatching(/^REQUIRE_ADMIN_2FA is false/)]);
    expect(productionWarnings(PRODUCTION_ENV)).toEqual([]);
    expect(refusal({ ...PRODUCTION_ENV, REQUIRE_ADMIN_2FA: 'maybe' })).toMatch(/REQUIRE_ADMIN_2FA: must be true or false/);
  });

  it.each([
    ['PAYMENT_PROVIDER', { PAYMENT_PROVIDER: undefined }],
    ['PAYMENT_PROVIDER', { PAYMENT_PROVIDER: '' }],
    ['PAYMENT_PROVIDER', { PAYMENT_PROVIDER: 'sandbox' }],
    ['SMTP_URL', { SMTP_URL: undefined }],
    ['SMTP_URL', { SMTP_URL: '  ' }],
    ['APP_SECRET', { APP_SECRET: undefined }],
    ['APP_SECRET', { APP_SECRET: 'x'.repeat(31) }],
    ['PUBLIC_URL', { PUBLIC_URL: 'http://invest.example.com' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'http://10.0.0.5:3000' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'true' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'TRUE' }],
    ['METRICS_TOKEN', { METRICS_TOKEN: undefined }],
    ['METRICS_TOKEN', { METRICS_TOKEN: ' ' }],
    ['METRICS_HOST', { METRICS_TOKEN: undefined, METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' }],
    ['METRICS_HOST', { METRICS_TOKEN: undefined, METRICS_PORT: '9464', METRICS_HOST: '::' }],
    ['METRICS_HOST', { METRICS_TOKEN: undefined, METRICS_PORT: '9464', METRICS_HOST: '203.0.113.5' }],
    ['METRICS_HOST', { METRICS_TOKEN: undefined, METRICS_PORT: '9464', METRICS_HOST: '172.32.0.1' }],
    ['METRICS_HOST', { METRICS_TOKEN: undefined, METRICS_PORT: '9464', METRICS_HOST: 'metrics.example.com' }],
    ['METRICS_PORT', { METRICS_PORT: '3000', PORT: '3000' }],
    ['METRICS_PORT', { METRICS_PORT: 'ninety' }],
    ['BTCPAY_URL', { BTCPAY_URL: 'http://btcpay.example.com' }],
    ['BTCPAY_URL', { BTCPAY_URL: 'http://8.8.8.8:23000' }],
    ['NOWPAYMENTS_API_URL', { NOWPAYMENTS_API_URL: 'http://api.nowpayments.io' }],
    ['S3_ENDPOINT', { S3_BUCKET: 'files', S3_ENDPOINT: 'http://s3.example.com' }],
    ['S3_ENDPOINT', { S3_BUCKET: 'files', S3_ENDPOINT: 'http://minio.internal:9000' }],
    ['BTCPAY_WEBHOOK_SECRET', { BTCPAY_WEBHOOK_SECRET: 'fifteen-chars-x' }],
    ['NOWPAYMENTS_IPN_SECRET', { PAYMENT_PROVIDER: 'nowpayments', NOWPAYMENTS_API_KEY: 'k', NOWPAYMENTS_IPN_SECRET: 'short' }],
  ])('refuses a missing or unsafe %s with one line naming it', (name, change) => {
    const message = refusal({ ...PRODUCTION_ENV, DATA_DIR: dataDir, ...change });
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toContain(name);
    // Refused before anything is written: no secret was generated for a missing APP_SECRET.
    expect(existsSync(path.join(dataDir, 'app-secret'))).toBe(false);
  });

  it.each(['Password123!', 'Passw0rd!', 'Qwerty123456!', 'Iloveyou1!', 'iloveyou'])(
    'refuses an ADMIN_PASSWORD the password rule refuses (%s), in one line naming it but not the password',
    (password) => {
      const env = { ...PRODUCTION_ENV, DATA_DIR: dataDir, ADMIN_EMAIL: 'boss@example.com', ADMIN_PASSWORD: password };
      const message = refusal(env);
      expect(message.split('\n')).toHaveLength(1);
      expect(message).toMatch(/^NODE_ENV=production refuses to start: ADMIN_PASSWORD is too easy to guess/);
      expect(message).not.toContain(password);
      // check-config gives the same verdict.
      expect(productionVerdict(env)).toEqual([message]);
    },
  );

  it('refuses an ADMIN_PASSWORD that is only the admin\'s own address, and takes a strong one', () => {
    expect(refusal({ ...PRODUCTION_ENV, ADMIN_EMAIL: 'wilhelmina.zed@example.com', ADMIN_PASSWORD: 'wilhelmina.zed@example.com' })).toContain('ADMIN_PASSWORD');
    expect(loadConfig({ ...PRODUCTION_ENV, ADMIN_EMAIL: 'boss@example.com', ADMIN_PASSWORD: 'Operator-chosen-Lantern-58' }).admin).toEqual({
      email: 'boss@example.com',
      password: 'Operator-chosen-Lantern-58',
    });
    // Too short is the schema's complaint, named once.
    expect(productionVerdict({ ...PRODUCTION_ENV, ADMIN_EMAIL: 'boss@example.com', ADMIN_PASSWORD: 'short' }).filter((line) => line.includes('ADMIN_PASSWORD'))).toHaveLength(1);
  });

  it('leaves a weak ADMIN_PASSWORD to development (the start warns there)', () => {
    expect(loadConfig({ DATA_DIR: dataDir, ADMIN_EMAIL: 'boss@example.com', ADMIN_PASSWORD: 'Password123!' }).admin?.password).toBe('Password123!');
  });

  it('lets PUBLIC_URL be local http, or unset (http://localhost:PORT)', () => {
    for (const url of ['http://localhost:3000', 'http://127.0.0.1:8080', 'https://invest.example.com']) {
      expect(loadConfig({ ...PRODUCTION_ENV, PUBLIC_URL: url }).env).toBe('production');
    }
    const { PUBLIC_URL: _unset, ...withoutUrl } = PRODUCTION_ENV;
    expect(loadConfig({ ...withoutUrl, PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
  });

  it('lets provider and bucket URLs use http only to loopback, private addresses and single-label names', () => {
    for (const url of ['http://localhost:23000', 'http://127.0.0.1:23000', 'http://[::1]:23000', 'http://10.1.2.3', 'http://172.20.0.4:80', 'http://192.168.0.10', 'http://[fd00::5]', 'http://btcpay:49392', 'https://btcpay.example.com']) {
      expect(loadConfig({ ...PRODUCTION_ENV, BTCPAY_URL: url }).payments, url).toMatchObject({ btcpay: { url: url.replace(/\/$/, '') } });
    }
    const nowpayments = { ...PRODUCTION_ENV, PAYMENT_PROVIDER: 'nowpayments', NOWPAYMENTS_API_KEY: 'k', NOWPAYMENTS_IPN_SECRET: 'an-ipn-secret-of-24-chars' };
    expect(loadConfig({ ...nowpayments, NOWPAYMENTS_API_URL: 'http://nowpayments-proxy:8080' }).env).toBe('production');
    // What compose.yaml sets: the MinIO container by its service name.
    expect(loadConfig({ ...PRODUCTION_ENV, S3_BUCKET: 'files', S3_ENDPOINT: 'http://minio:9000' }).s3?.endpoint).toBe('http://minio:9000');
  });

  it('names only the origin of a refused URL, never credentials or a path in it', () => {
    const message = refusal({ ...PRODUCTION_ENV, BTCPAY_URL: 'http://user:hunter2@btcpay.example.com/base?token=abc' });
    expect(message).toContain('BTCPAY_URL is http://btcpay.example.com:');
    expect(message).not.toMatch(/hunter2|token=abc|\/base/);
  });

  it('takes webhook secrets of 16 characters or more, and never prints a refused one', () => {
    expect(loadConfig({ ...PRODUCTION_ENV, BTCPAY_WEBHOOK_SECRET: 'x'.repeat(16) }).env).toBe('production');
    const message = refusal({ ...PRODUCTION_ENV, BTCPAY_WEBHOOK_SECRET: 'secret-123' });
    expect(message).toContain('BTCPAY_WEBHOOK_SECRET is 10 characters long');
    expect(message).not.toContain('secret-123');
    // Outside production a short secret still starts (the fakes and development use them).
    expect(loadConfig({ ...PRODUCTION_ENV, NODE_ENV: 'development', DATA_DIR: dataDir, BTCPAY_WEBHOOK_SECRET: 'short', BTCPAY_URL: 'http://btcpay.example.com' }).env).toBe('development');
  });

  it('warns, without refusing, about smtp:// without requireTLS=true', () => {
    const warnings = (smtpUrl: string) => productionWarnings({ ...PRODUCTION_ENV, SMTP_URL: smtpUrl });
    for (const url of ['smtp://user:pw@mail.example.com:587', 'smtp://mail.example.com:587?requireTLS=false', 'smtp://mail.example.com?requireTLS=1', 'smtp://mail.example.com?requiretls=true']) {
      expect(warnings(url), url).toEqual([expect.stringMatching(/^SMTP_URL is smtp:\/\/ without requireTLS=true/)]);
      expect(loadConfig({ ...PRODUCTION_ENV, SMTP_URL: url }).smtpUrl, url).toBe(url);
    }
    for (const url of ['smtp://user:pw@mail.example.com:587?requireTLS=true', 'smtps://user:pw@mail.example.com:465']) {
      expect(warnings(url), url).toEqual([]);
    }
    expect(warnings('smtp://user:pw@mail.example.com:587').join('\n')).not.toContain('pw@');
  });

  it('names every refusal at once, one line each', () => {
    const message = refusal({ NODE_ENV: 'production', DATA_DIR: dataDir, PUBLIC_URL: 'http://invest.example.com', TRUST_PROXY: 'true' });
    const lines = message.split('\n');
    for (const name of ['PAYMENT_PROVIDER', 'PAYOUT_PROVIDER', 'SMTP_URL', 'APP_SECRET', 'PUBLIC_URL', 'TRUST_PROXY', 'METRICS_TOKEN']) {
      expect(lines.filter((line) => line.includes(`${name} `)), name).toHaveLength(1);
    }
    expect(lines).toHaveLength(7);
  });

  it('refuses the sandbox payout provider, and coins the chosen payout provider cannot send (issue 32)', () => {
    expect(refusal({ ...PRODUCTION_ENV, PAYOUT_PROVIDER: 'sandbox', DATA_DIR: dataDir })).toContain('PAYOUT_PROVIDER is sandbox');
    const btcpay = refusal({ ...PRODUCTION_ENV, PAYOUT_PROVIDER: 'btcpay', DATA_DIR: dataDir });
    expect(btcpay).toContain('WITHDRAWAL_ASSETS lists ETH, USDT-TRC20, which PAYOUT_PROVIDER=btcpay cannot send');
    expect(loadConfig({ ...PRODUCTION_ENV, PAYOUT_PROVIDER: 'btcpay', WITHDRAWAL_ASSETS: 'BTC,LTC' }).withdrawals).toMatchObject({
      payoutProvider: 'btcpay',
      assets: ['BTC', 'LTC'],
      feeCents: 100,
      dailyLimitCents: 1_000_000,
      dualApprovalCents: 500_000,
    });
    expect(refusal({ ...PRODUCTION_ENV, PAYOUT_PROVIDER: 'nowpayments', NOWPAYMENTS_API_KEY: 'k', NOWPAYMENTS_IPN_SECRET: 'ipn-secret-0123456789', DATA_DIR: dataDir })).toMatch(
      /NOWPAYMENTS_EMAIL.*required when PAYOUT_PROVIDER=nowpayments/,
    );
    expect(refusal({ ...PRODUCTION_ENV, WITHDRAWAL_ASSETS: 'BTC,DOGE', DATA_DIR: dataDir })).toContain('WITHDRAWAL_ASSETS');
  });

  it('serves /metrics without a token only on a listener of its own at a loopback or private address', () => {
    const { METRICS_TOKEN: _unset, ...withoutToken } = PRODUCTION_ENV;
    expect(refusal({ ...withoutToken, DATA_DIR: dataDir })).toContain('METRICS_TOKEN unset and no separate metrics listener');
    expect(loadConfig({ ...withoutToken, METRICS_PORT: '9464' }).metricsListener).toEqual({ host: '127.0.0.1', port: 9464 });
    for (const host of ['127.0.0.1', 'localhost', '10.0.3.7', '172.16.0.5', '172.31.255.1', '192.168.1.2', '::1', '[::1]', 'fd12:3456::1']) {
      expect(loadConfig({ ...withoutToken, METRICS_PORT: '9464', METRICS_HOST: host }).metricsListener, host).toEqual({ host, port: 9464 });
    }
    // With the token, the listener may be anywhere: it is guarded.
    expect(loadConfig({ ...PRODUCTION_ENV, METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' }).metricsListener).toEqual({ host: '0.0.0.0', port: 9464 });
    expect(loadConfig(PRODUCTION_ENV).metricsListener).toBeUndefined();
  });

  it('names a too-short APP_SECRET once, not once by the schema and again by the production check', () => {
    expect(productionVerdict({ ...PRODUCTION_ENV, APP_SECRET: 'short' }).filter((line) => line.includes('APP_SECRET'))).toHaveLength(1);
  });

  it('is chosen by NODE_ENV=production only: without it the same settings start in development', () => {
    expect(loadConfig({ DATA_DIR: dataDir, APP_SECRET: PRODUCTION_ENV.APP_SECRET }).env).toBe('development');
    expect(loadConfig({ DATA_DIR: dataDir, APP_SECRET: PRODUCTION_ENV.APP_SECRET, NODE_ENV: 'test' }).payments.provider).toBe('sandbox');
  });
});

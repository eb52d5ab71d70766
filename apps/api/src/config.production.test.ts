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
    expect(loadConfig({ ...PRODUCTION_ENV, PAYMENT_PROVIDER: 'nowpayments', NOWPAYMENTS_API_KEY: 'k', NOWPAYMENTS_IPN_SECRET: 's' }).env).toBe(
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
  ])('refuses a missing or unsafe %s with one line naming it', (name, change) => {
    const message = refusal({ ...PRODUCTION_ENV, DATA_DIR: dataDir, ...change });
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toContain(name);
    // Refused before anything is written: no secret was generated for a missing APP_SECRET.
    expect(existsSync(path.join(dataDir, 'app-secret'))).toBe(false);
  });

  it('lets PUBLIC_URL be local http, or unset (http://localhost:PORT)', () => {
    for (const url of ['http://localhost:3000', 'http://127.0.0.1:8080', 'https://invest.example.com']) {
      expect(loadConfig({ ...PRODUCTION_ENV, PUBLIC_URL: url }).env).toBe('production');
    }
    const { PUBLIC_URL: _unset, ...withoutUrl } = PRODUCTION_ENV;
    expect(loadConfig({ ...withoutUrl, PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
  });

  it('names every refusal at once, one line each', () => {
    const message = refusal({ NODE_ENV: 'production', DATA_DIR: dataDir, PUBLIC_URL: 'http://invest.example.com', TRUST_PROXY: 'true' });
    const lines = message.split('\n');
    for (const name of ['PAYMENT_PROVIDER', 'SMTP_URL', 'APP_SECRET', 'PUBLIC_URL', 'TRUST_PROXY']) {
      expect(lines.filter((line) => line.includes(name)), name).toHaveLength(1);
    }
    expect(lines).toHaveLength(5);
  });

  it('names a too-short APP_SECRET once, not once by the schema and again by the production check', () => {
    expect(productionVerdict({ ...PRODUCTION_ENV, APP_SECRET: 'short' }).filter((line) => line.includes('APP_SECRET'))).toHaveLength(1);
  });

  it('is chosen by NODE_ENV=production only: without it the same settings start in development', () => {
    expect(loadConfig({ DATA_DIR: dataDir, APP_SECRET: PRODUCTION_ENV.APP_SECRET }).env).toBe('development');
    expect(loadConfig({ DATA_DIR: dataDir, APP_SECRET: PRODUCTION_ENV.APP_SECRET, NODE_ENV: 'test' }).payments.provider).toBe('sandbox');
  });
});

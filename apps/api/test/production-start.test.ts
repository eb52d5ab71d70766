import { readdirSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { MAIL_LOG_WARNING } from '../src/modules/mail/mail.transport';
import { PRODUCTION_ENV } from './production-env';
import { freePort, runTsx, startServer } from './server-process';
import { useTempDirs } from './temp-dirs';

/**
 * The real server started as an operator starts it (tsx apps/api/src/server.ts, only the environment given):
 * NODE_ENV=production refuses every unsafe setting with one line naming it and exit code 1, and starts with a
 * safe configuration; with no configuration at all it is the embedded development default.
 * Spawning is slow, so this runs once, in the PGlite project (nothing here depends on the test database).
 */
describe.skipIf(inject('testDb').kind !== 'pglite')('starting the server', () => {
  const tempDir = useTempDirs('tf-start-');

  const without = (name: string) => Object.fromEntries(Object.entries(PRODUCTION_ENV).filter(([key]) => key !== name));

  it('refuses each unsafe production setting with one line naming it, before touching anything', async () => {
    const cases: Array<[string, Record<string, string>]> = [
      ['PAYMENT_PROVIDER', without('PAYMENT_PROVIDER')],
      ['PAYMENT_PROVIDER', { ...PRODUCTION_ENV, PAYMENT_PROVIDER: 'sandbox' }],
      ['PAYOUT_PROVIDER', without('PAYOUT_PROVIDER')],
      ['PAYOUT_PROVIDER', { ...PRODUCTION_ENV, PAYOUT_PROVIDER: 'sandbox' }],
      // BTCPay Server sends BTC and LTC only: the default coins include ETH and USDT-TRC20.
      ['WITHDRAWAL_ASSETS', { ...PRODUCTION_ENV, PAYOUT_PROVIDER: 'btcpay' }],
      ['SMTP_URL', without('SMTP_URL')],
      ['APP_SECRET', without('APP_SECRET')],
      ['APP_SECRET', { ...PRODUCTION_ENV, APP_SECRET: 'only-thirty-one-bytes-long-0123' }],
      ['PUBLIC_URL', { ...PRODUCTION_ENV, PUBLIC_URL: 'http://invest.example.com' }],
      ['TRUST_PROXY', { ...PRODUCTION_ENV, TRUST_PROXY: 'true' }],
      ['METRICS_TOKEN', without('METRICS_TOKEN')],
      ['BTCPAY_URL', { ...PRODUCTION_ENV, BTCPAY_URL: 'http://btcpay.example.com' }],
      ['S3_ENDPOINT', { ...PRODUCTION_ENV, S3_BUCKET: 'files', S3_ENDPOINT: 'http://s3.example.com' }],
      ['BTCPAY_WEBHOOK_SECRET', { ...PRODUCTION_ENV, BTCPAY_WEBHOOK_SECRET: 'fifteen-chars-x' }],
      ['ADMIN_PASSWORD', { ...PRODUCTION_ENV, ADMIN_EMAIL: 'boss@example.com', ADMIN_PASSWORD: 'Password123!' }],
    ];
    const runs = await Promise.all(
      cases.map(async ([name, env]) => {
        const dataDir = tempDir();
        const server = startServer({ ...env, DATA_DIR: dataDir, PORT: String(await freePort()), HOST: '127.0.0.1' });
        return { name, env, dataDir, code: await server.exited, stderr: server.stderr(), stdout: server.stdout() };
      }),
    );
    for (const run of runs) {
      const about = `${run.name} ${JSON.stringify(run.env)}:\n${run.stderr}${run.stdout}`;
      expect(run.code, about).toBe(1);
      const lines = run.stderr.trim().split('\n');
      expect(lines, about).toHaveLength(1);
      expect(lines[0], about).toContain(run.name);
      expect(run.stdout, about).toBe('');
      // Refused before the database was opened or a secret generated.
      expect(readdirSync(run.dataDir), about).toEqual([]);
    }
  }, 300_000);

  it('check-config gives the production verdict for the environment without starting', async () => {
    const dataDir = tempDir();
    const unsafe = runTsx('apps/api/src/cli/check-config.ts', { DATA_DIR: dataDir, PUBLIC_URL: 'http://invest.example.com', TRUST_PROXY: 'true' });
    const safe = runTsx('apps/api/src/cli/check-config.ts', { ...PRODUCTION_ENV, DATA_DIR: dataDir });
    const warned = runTsx('apps/api/src/cli/check-config.ts', {
      ...PRODUCTION_ENV,
      DATA_DIR: dataDir,
      SMTP_URL: 'smtp://user:pw@mail.example.com:587',
      REQUIRE_ADMIN_2FA: 'false',
    });
    const weakAdmin = runTsx('apps/api/src/cli/check-config.ts', { ...PRODUCTION_ENV, DATA_DIR: dataDir, ADMIN_EMAIL: 'boss@example.com', ADMIN_PASSWORD: 'Qwerty123456!' });
    const [unsafeCode, safeCode, warnedCode, weakAdminCode] = await Promise.all([unsafe.exited, safe.exited, warned.exited, weakAdmin.exited]);

    expect(weakAdminCode, weakAdmin.output()).toBe(1);
    expect(weakAdmin.stdout()).toContain('would refuse to start (1 problem)');
    expect(weakAdmin.stdout()).toMatch(/refuses to start: ADMIN_PASSWORD is too easy to guess/);
    expect(weakAdmin.output()).not.toContain('Qwerty123456!');

    expect(unsafeCode, unsafe.output()).toBe(1);
    for (const name of ['PAYMENT_PROVIDER', 'PAYOUT_PROVIDER', 'SMTP_URL', 'APP_SECRET', 'PUBLIC_URL', 'TRUST_PROXY', 'METRICS_TOKEN']) {
      expect(unsafe.stdout().split('\n').filter((line) => line.includes(`refuses to start: ${name} `)), name).toHaveLength(1);
    }
    expect(unsafe.stdout()).toContain('would refuse to start (7 problems)');
    expect(unsafe.stdout()).toContain('NODE_ENV is development');

    expect(safeCode, safe.output()).toBe(0);
    expect(safe.stdout()).toContain('Production check: fine.');
    expect(safe.stdout()).not.toContain('Warning:');
    // Warnings do not refuse: smtp:// without requireTLS=true, and admins without two-factor sign-in.
    expect(warnedCode, warned.output()).toBe(0);
    expect(warned.stdout()).toContain('Warning: SMTP_URL is smtp:// without requireTLS=true');
    expect(warned.stdout()).toContain('Warning: REQUIRE_ADMIN_2FA is false');
    expect(warned.stdout()).toContain('Production check: fine.');
    expect(readdirSync(dataDir)).toEqual([]);
  }, 120_000);

  it('starts in production with a safe configuration, and with none at all as the development default', async () => {
    const [prodPort, devPort] = [await freePort(), await freePort()];
    const production = startServer({ ...PRODUCTION_ENV, DATA_DIR: tempDir(), PORT: String(prodPort), HOST: '127.0.0.1' });
    // No NODE_ENV, no provider, no SMTP, no secret: what `npm start` does on a fresh clone.
    const development = startServer({ DATA_DIR: tempDir(), PORT: String(devPort), HOST: '127.0.0.1' });
    try {
      await Promise.all([production.waitFor(/Terrafund is running/, 150_000), development.waitFor(/Terrafund is running/, 150_000)]);
      for (const port of [prodPort, devPort]) {
        const health = await fetch(`http://127.0.0.1:${port}/api/health`);
        expect(health.status).toBe(200);
      }
      expect(production.output()).toContain('payments: btcpay');
      expect(production.output()).toContain('mail: SMTP');
      expect(production.output()).not.toContain(MAIL_LOG_WARNING);

      expect(development.output()).toContain('payments: sandbox');
      expect(development.output()).toContain('mail: printed to this log');
      expect(development.output()).toContain('"database":"pglite"');
      // Says once, as a warning, that mail bodies go to the log.
      const warnings = development.output().split('\n').filter((line) => line.includes(MAIL_LOG_WARNING));
      expect(warnings).toHaveLength(1);
      expect(JSON.parse(warnings[0]!).level).toBe(40);
    } finally {
      await Promise.all([production.stop(), development.stop()]);
    }
  }, 240_000);
});

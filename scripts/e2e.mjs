// End-to-end tests: builds the product (`npm run build`: the web app and the compiled API), starts it as
// `npm run serve` does (node on apps/api/dist/server.js, a fresh embedded database, real SMTP into a local
// sink) and drives it with Playwright in Debian's Chromium. Arguments go to `playwright test`; one that names
// a config (`-c`/`--config`, as `npm run screenshots` does) replaces the journeys' own.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ensureChromium } from './ensure-chromium.mjs';
import { startMailSink } from './mail-sink.mjs';

const root = path.resolve(import.meta.dirname, '..');
const extraArgs = process.argv.slice(2);
const namesConfig = extraArgs.some((arg) => arg === '-c' || arg === '--config' || arg.startsWith('--config='));
const configArgs = namesConfig ? [] : ['-c', 'apps/web/e2e/playwright.config.ts'];

/** @returns {Promise<number>} */
const freePort = () =>
  new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {net.AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });

/**
 * Three minutes at most: a loaded 2-core machine takes more than a minute to open the embedded database.
 * @param {string} url
 * @param {import('node:child_process').ChildProcess} child
 */
async function waitForHealth(url, child, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited early with code ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the server did not become healthy in time');
}

async function main() {
  const chromium = ensureChromium();
  if (!process.env.E2E_SKIP_BUILD) {
    const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }

  const sink = await startMailSink();
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tf-e2e-'));
  const admin = { email: 'admin@e2e.terrafund.test', password: 'e2e-admin-password' };
  /** @type {NodeJS.ProcessEnv} */
  const serverEnv = {
    ...process.env,
    // Development: the journeys pay through the built-in sandbox, which production refuses to run.
    NODE_ENV: 'development',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: baseUrl,
    DATA_DIR: dataDir,
    SMTP_URL: sink.smtpUrl,
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    LOG_LEVEL: 'warn',
  };
  delete serverEnv.DATABASE_URL; // the product's own default: embedded PGlite
  const funded = { email: 'funded-member@e2e.terrafund.test', password: 'e2e-funded-password' };
  const seed = spawnSync(path.join(root, 'node_modules/.bin/tsx'), ['scripts/e2e-seed.ts', dataDir, funded.email, funded.password], {
    cwd: root,
    stdio: 'inherit',
  });
  if (seed.status !== 0) throw new Error('seeding the end-to-end database failed');
  const server = spawn(process.execPath, ['--enable-source-maps', 'apps/api/dist/server.js'], {
    cwd: root,
    env: serverEnv,
    stdio: ['ignore', 'inherit', 'inherit'],
  });

  let code = 1;
  try {
    await waitForHealth(baseUrl, server);
    // Asynchronously: the mail sink runs in this process, so its event loop must stay free during the run.
    const run = spawn(
      path.join(root, 'node_modules/.bin/playwright'),
      ['test', ...configArgs, ...extraArgs],
      {
        cwd: root,
        stdio: 'inherit',
        env: {
          ...process.env,
          E2E_BASE_URL: baseUrl,
          E2E_MAILBOX_URL: sink.mailboxUrl,
          E2E_ADMIN_EMAIL: admin.email,
          E2E_ADMIN_PASSWORD: admin.password,
          E2E_FUNDED_EMAIL: funded.email,
          E2E_FUNDED_PASSWORD: funded.password,
          CHROMIUM_PATH: chromium,
        },
      },
    );
    code = await new Promise((resolve) => {
      run.once('error', () => resolve(1));
      run.once('exit', (status) => resolve(status ?? 1));
    });
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => (server.exitCode !== null ? resolve(undefined) : server.once('exit', resolve)));
    await sink.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  process.exit(code);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

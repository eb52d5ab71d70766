import { readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, repoRoot, startInstance, startProcess, tempDir, waitFor, type Instance, type Proc } from './harness';

/**
 * The compiled product on its embedded defaults (PGlite under DATA_DIR): `npm run serve` starts it with node and
 * is healthy within 10 s, and SIGTERM stops it gracefully. Needs no PostgreSQL, so it runs everywhere.
 */
describe('the compiled server on its embedded defaults', () => {
  const dataDir = tempDir('single');
  const env = { LOG_LEVEL: 'warn', DATA_DIR: dataDir };
  let served: Proc | undefined;

  beforeAll(async () => {
    // The first start creates the embedded database (PGlite's initdb is slow on a busy machine), migrates and
    // seeds; the timed start below is a start on an existing DATA_DIR, like every restart and deploy.
    const first = await startInstance('first start', env, { timeoutMs: 200_000 });
    expect((await first.stop('SIGTERM')).code).toBe(0);
  });
  afterAll(async () => {
    // SIGTERM, which npm passes on: SIGKILL would kill npm alone and leave the server running.
    await served?.stop('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('builds with `npm run build` and serves the compiled API with plain node, no TypeScript at run time', () => {
    const scripts = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).scripts as Record<string, string>;
    // `exec`: the shell npm runs the script in becomes the server, so npm's SIGTERM reaches it.
    expect(scripts.serve).toMatch(/^exec node (--[a-z-]+ )*apps\/api\/dist\/server\.js$/);
    expect(scripts.start).toBe('npm run build && exec npm run serve');
    expect(scripts.build).toContain('@terrafund/api');
    const dist = path.join(repoRoot, 'apps/api/dist');
    const compiled = readdirSync(dist)
      .filter((name) => name.endsWith('.js'))
      .map((name) => readFileSync(path.join(dist, name), 'utf8'))
      .join('\n');
    // @terrafund/contracts is compiled in (its package points at TypeScript sources node cannot run)...
    expect(compiled).not.toMatch(/from ["']@terrafund\/contracts["']/);
    // ...and npm packages stay external, so PGlite's wasm and the native modules load from node_modules.
    expect(compiled).toMatch(/from ["']@electric-sql\/pglite["']/);
    expect(compiled).toMatch(/from ["']sharp["']/);
  });

  it('`npm run serve` is healthy within 10 s and answers from the compiled code', async () => {
    const port = await freePort();
    const started = Date.now();
    served = startProcess('npm', ['run', 'serve'], { env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: '', NODE_ENV: 'development' }, name: 'npm run serve' });
    const url = `http://127.0.0.1:${port}`;
    await waitFor('npm run serve to be healthy', async () => (await fetch(`${url}/api/health`)).ok, 10_000).catch((error) => {
      throw new Error(`${String(error)}\n${served!.output()}`);
    });
    const elapsed = Date.now() - started;
    expect(elapsed).toBeLessThan(10_000);
    expect(await (await fetch(`${url}/api/health`)).json()).toEqual({ status: 'ok' });
    expect((await fetch(`${url}/api/plans`)).status).toBe(200);
    // npm passes SIGTERM on to the server, which stops cleanly: npm exits 0 and leaves nothing behind.
    const stopped = await served.stop('SIGTERM');
    expect(stopped.code, served.output()).toBe(0);
    served = undefined;
    await waitFor('the port to be free', async () => {
      try {
        await fetch(`${url}/api/health`);
        return false;
      } catch {
        return true;
      }
    }, 5_000);
  });

  describe('on SIGTERM', () => {
    let instance: Instance;
    beforeAll(async () => {
      instance = await startInstance('graceful', env, { timeoutMs: 60_000 });
    });
    afterAll(() => instance.stop('SIGKILL'));

    it('answers the request in flight with its normal status, closes keep-alive connections, refuses new ones and exits 0 within 10 s', async () => {
      // A keep-alive client that made a request and keeps its connection open.
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const idle = await new Promise<net.Socket>((resolve, reject) => {
        const request = http.get(`${instance.url}/api/health`, { agent }, (response) => {
          response.resume();
          response.once('end', () => resolve(request.socket!));
        });
        request.once('error', reject);
      });
      expect(idle.destroyed).toBe(false);
      const idleClosed = new Promise<void>((resolve) => idle.once('close', () => resolve()));

      // A slow request: its headers and half its body now, the rest after the signal.
      const body = JSON.stringify({ email: 'nobody@terrafund.test', password: 'Quiet-Lantern-47!' });
      const slow = http.request(`${instance.url}/api/users/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        agent: false,
      });
      const answered = new Promise<{ status: number; body: string; connection?: string }>((resolve, reject) => {
        slow.once('response', (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.once('end', () => resolve({ status: response.statusCode!, body: text, connection: response.headers.connection }));
        });
        slow.once('error', reject);
      });
      slow.write(body.slice(0, 10));
      await new Promise((r) => setTimeout(r, 300));

      const started = Date.now();
      instance.child.kill('SIGTERM');
      await waitFor('the idle keep-alive connection to be closed by the server', async () => idle.destroyed || (await Promise.race([idleClosed.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 50))])), 5_000);

      // It no longer accepts connections while the slow request is still being answered.
      await waitFor('new connections to be refused', async () => {
        try {
          await fetch(`${instance.url}/api/health`, { signal: AbortSignal.timeout(1000) });
          return false;
        } catch {
          return true;
        }
      }, 5_000);

      await new Promise((r) => setTimeout(r, 700));
      slow.end(body.slice(10));
      const response = await answered;
      // The normal answer to a wrong password, not a 503 or a reset connection.
      expect(response.status, response.body).toBe(400);
      expect(JSON.parse(response.body)).toMatchObject({ message: 'Invalid email or password' });
      expect(response.connection).toBe('close');

      const exit = await instance.exited;
      expect(exit, instance.output()).toEqual({ code: 0, signal: null });
      expect(Date.now() - started).toBeLessThan(10_000);
      agent.destroy();
    });
  });

  it('writes its log to the last line on SIGTERM: the access lines just before it, "shutting down", "stopped"', async () => {
    const logged = await startInstance('logging', { ...env, LOG_LEVEL: 'info' }, { timeoutMs: 60_000 });
    for (let i = 0; i < 20; i += 1) expect((await fetch(`${logged.url}/api/plans?n=${i}`)).status).toBe(200);
    const stopped = await logged.stop('SIGTERM');
    expect(stopped.code, logged.output()).toBe(0);
    const lines = logged
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string; req?: { url: string } });
    const plans = lines.filter((line) => line.msg === 'request completed' && line.req?.url.startsWith('/api/plans'));
    expect(plans).toHaveLength(20);
    expect(lines.map((line) => line.msg).slice(-2)).toEqual(['shutting down', 'stopped']);
  });
});
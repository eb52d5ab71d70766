import { rmSync } from 'node:fs';
import http from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { haproxyInstalled, startHaproxy, startInstance, tempDir, type Instance } from './harness';

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** A GET of `path` exactly as written (fetch would resolve its dot segments before sending it). */
function rawGet(base: string, path: string): Promise<Answer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: hostname, port, path, method: 'GET', agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

/** Spellings of /metrics that the instance's router reads as /metrics, or that a proxy could be walked around with. */
const METRICS_SPELLINGS = ['/metrics', '/%6detrics', '/%6Detrics', '/metric%73', '//metrics', '/./metrics', '/api/../metrics', '/x/%2e%2e/metrics', '/metrics/', '/metrics?x=1'];

/**
 * The public entry as deploy/haproxy.cfg ships it (its global settings and its frontend's rules, the addresses the
 * harness's), in front of the compiled server on its embedded defaults: no METRICS_TOKEN, so /metrics is open on the
 * instance itself and only the proxy keeps it from the public.
 */
describe.skipIf(!haproxyInstalled)('the public entry (deploy/haproxy.cfg) in front of an instance', () => {
  let instance: Instance;
  let proxy: Awaited<ReturnType<typeof startHaproxy>>;
  const dataDir = tempDir('proxy-rules');

  beforeAll(async () => {
    instance = await startInstance('instance', { DATA_DIR: dataDir }, { timeoutMs: 200_000 });
    proxy = await startHaproxy([{ name: 'app', port: instance.port }]);
  });
  afterAll(async () => {
    await Promise.allSettled([proxy?.close(), instance?.stop()]);
    rmSync(dataDir, { recursive: true, force: true });
  });
  afterEach((context) => {
    if (context.task.result?.state === 'fail') for (const p of [instance, proxy]) if (p) console.log(p.output().slice(-4000));
  });

  it('denies /metrics however it is spelled, as the instance would have served it', async () => {
    // Without the proxy, the router decodes the unreserved characters and serves the metrics.
    for (const path of ['/metrics', '/%6detrics', '/metric%73']) {
      const direct = await rawGet(instance.url, path);
      expect(direct.status, path).toBe(200);
      expect(direct.body, path).toContain('http_request_duration_seconds');
    }
    for (const path of METRICS_SPELLINGS) {
      const answer = await rawGet(proxy.url, path);
      expect(answer.status, path).toBe(404);
      expect(answer.body, path).not.toContain('http_request_duration_seconds');
      // Denied by the proxy itself, not passed on to the instance's own 404.
      expect(answer.body, path).not.toContain('NOT_FOUND');
    }
  });

  it('still passes the API and the pages, and paths that only look alike', async () => {
    for (const path of ['/api/health', '/api/plans', '/api/config', '/%61pi/health', '/api//plans', '/api/x/../plans']) {
      const answer = await rawGet(proxy.url, path);
      expect(answer.status, path).toBe(200);
      expect(answer.headers['content-type'], path).toMatch(/^application\/json/);
      expect(answer.headers['cache-control'], path).toBe('no-store');
    }
    // A page reaches the instance (without a web build it answers its JSON 404; with one, the page).
    for (const path of ['/', '/dashboard', '/metricsboard', '/login?next=/metrics']) {
      const answer = await rawGet(proxy.url, path);
      expect([answer.status === 200 && /^text\/html/.test(String(answer.headers['content-type'])), answer.body.includes('NOT_FOUND')], path).toContain(true);
    }
  });

  it('answers an API route spelled with encoded letters with the JSON answer’s headers, through the proxy and without it', async () => {
    for (const base of [proxy.url, instance.url]) {
      const plain = await rawGet(base, '/api/users/profile');
      const odd = await rawGet(base, '/%61pi/users/profile');
      expect([odd.status, plain.status], base).toEqual([401, 401]);
      expect(odd.headers['cache-control'], base).toBe('no-store');
      expect(odd.headers['content-security-policy'], base).toBe(plain.headers['content-security-policy']);
      expect(odd.headers['cross-origin-opener-policy'], base).toBeUndefined();
      expect(JSON.parse(odd.body), base).toMatchObject({ code: 'UNAUTHENTICATED' });
    }
  });
});

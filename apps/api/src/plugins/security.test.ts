import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/test-app';
import { API_CONTENT_SECURITY_POLICY, DOCUMENT_HEADERS } from '../lib/security-headers';
import { isApiPath } from './security';

/** Headers a server chose, without those of the body and the connection. */
const chosen = (headers: Record<string, unknown>) => {
  const { date: _date, connection: _connection, 'keep-alive': _keepAlive, 'content-length': _length, ...rest } = headers;
  return rest;
};

describe('a path the router decodes to an API route', () => {
  let ctx: TestContext;
  let dist: string;
  beforeAll(async () => {
    // A built web app, so that pages (and the not-found fallback) get the page's set of headers.
    dist = mkdtempSync(path.join(os.tmpdir(), 'tf-security-'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html><head><script>1</script></head><body></body></html>');
    ctx = await createTestApp({ config: { webDistDir: dist } });
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const get = (url: string) => ctx.app.inject({ method: 'GET', url });

  it('gets the JSON answer’s headers, Cache-Control: no-store included, as the plain path does', async () => {
    for (const [encoded, plain] of [
      ['/%61pi/users/profile', '/api/users/profile'],
      ['/%61%70%69/users/profile', '/api/users/profile'],
      ['/api/users/%70rofile', '/api/users/profile'],
      ['/%61pi/config', '/api/config'],
    ] as const) {
      const [odd, normal] = [await get(encoded), await get(plain)];
      expect(odd.statusCode, encoded).toBe(normal.statusCode);
      expect(odd.headers['cache-control'], encoded).toBe('no-store');
      expect(odd.headers['content-security-policy'], encoded).toBe(API_CONTENT_SECURITY_POLICY);
      for (const name of Object.keys(DOCUMENT_HEADERS)) expect(odd.headers[name], `${encoded} ${name}`).toBeUndefined();
      expect(chosen(odd.headers), encoded).toEqual(chosen(normal.headers));
    }
  });

  it('that matches no route is a JSON 404 with the same headers, not the web app’s page', async () => {
    const page = await get('/dashboard');
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    for (const url of ['/%61pi/no/such/route', '/%61pi']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toMatch(/^application\/json/);
      expect(response.headers['cache-control'], url).toBe('no-store');
      expect(response.headers['content-security-policy'], url).toBe(API_CONTENT_SECURITY_POLICY);
      expect(response.headers['content-security-policy'], url).not.toBe(page.headers['content-security-policy']);
    }
  });

  it('is told apart from other paths by its decoded form', () => {
    for (const url of ['/api', '/api/', '/api/x?y=1', '/%61pi/users', '/ap%69/x']) expect(isApiPath(url), url).toBe(true);
    for (const url of ['/', '/apis', '/dashboard', '/x/api', '/%E0%A4%A', '/apix/y']) expect(isApiPath(url), url).toBe(false);
  });
});

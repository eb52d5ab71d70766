import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import viteConfig from '../../../web/vite.config';
import { createTestApp, type TestContext } from '../../test/test-app';

/**
 * No public source maps: the web build makes none, and the server refuses to serve one that is in the
 * built directory anyway (an old or local build), answering 404 rather than the file or index.html.
 */
describe('the built web app', () => {
  let dist: string;
  let ctx: TestContext;
  beforeAll(async () => {
    dist = mkdtempSync(path.join(os.tmpdir(), 'tf-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Terrafund</title><script type="module" src="/assets/app.js"></script>');
    writeFileSync(path.join(dist, 'assets', 'app.js'), 'console.log("app");\n');
    writeFileSync(path.join(dist, 'assets', 'app.js.map'), '{"version":3,"sources":["../src/secret.ts"],"sourcesContent":["const key = 1"]}');
    writeFileSync(path.join(dist, 'root.css.map'), '{"version":3}');
    ctx = await createTestApp({ config: { webDistDir: dist } });
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('is built without source maps', () => {
    const { build } = viteConfig as { build?: { sourcemap?: unknown } };
    expect([false, undefined, 'hidden']).toContain(build?.sourcemap);
    // 'hidden' would still write the files: then they must not be in what is served, which the next test proves.
  });

  it('serves the app and its assets, but never a .map file', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/assets/app.js' })).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: '/dashboard' })).body).toContain('<title>Terrafund</title>');
    for (const url of ['/assets/app.js.map', '/root.css.map', '/assets/APP.JS.MAP', '/assets/missing.js.map', '/assets/app.js.map?x=1']) {
      for (const method of ['GET', 'HEAD'] as const) {
        const response = await ctx.app.inject({ method, url });
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        expect(response.body, url).not.toContain('sourcesContent');
        expect(response.body, url).not.toContain('<title>');
      }
    }
  });
});

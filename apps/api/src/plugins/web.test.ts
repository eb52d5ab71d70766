import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdf } from '../../test/files';
import { uploaded } from '../../test/project-fixtures';
import { createMemberAndAdmin, createTestApp, type TestContext } from '../../test/test-app';
import { COMPRESS_THRESHOLD_BYTES } from './compress';
import { DEFAULT_CONTACT } from '@terrafund/contracts';
import { API_CONTENT_SECURITY_POLICY, DOCUMENT_HEADERS } from '../lib/security-headers';
import { IMMUTABLE_CACHE, routeMatcher } from './web';

const ANY_ANSWER = ['cross-origin-resource-policy', 'referrer-policy', 'strict-transport-security', 'x-content-type-options', 'x-frame-options'];

const THEME_SCRIPT = `document.documentElement.classList.toggle('dark', true);`;
/** The landing page's contact details as the build draws them (the defaults). */
const DRAWN_CONTACT =
  '<a href="mailto:support@terrafund.example"><span>support@terrafund.example</span></a><a href="tel:+12015550134">+1 (201) 555-0134</a>';

/** A built web app as Vite lays it out: hashed assets, each text file also as .br and .gz. */
function fakeDist() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tf-web-'));
  const files: Record<string, string> = {
    'index.html': `<!doctype html><html><head><script>${THEME_SCRIPT}</script><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body><div id="root"></div></body></html>`,
    'prerendered/pages.json': JSON.stringify({ '/': 'prerendered/home.html', '/login': 'prerendered/login.html' }),
    'prerendered/home.html': `<!doctype html><html><head></head><body><div id="root" data-prerendered><main>Welcome</main><footer>${DRAWN_CONTACT}</footer></div></body></html>`,
    'prerendered/login.html': `<!doctype html><html><head></head><body><div id="root" data-prerendered><main>Sign in</main></div></body></html>`,
    'prerendered/not-found.html': `<!doctype html><html><head></head><body><div id="root" data-prerendered><main>404 Not Found</main></div></body></html>`,
    'prerendered/routes.json': JSON.stringify({
      routes: ['/', '/login', '/register', '/dashboard', '/projects', '/projects/:id', '/wallet/payment/success', '/admin/users/:userId'],
      drawn: ['/', '/login'],
      notFound: 'prerendered/not-found.html',
    }),
    'assets/index-Ab12Cd34.js': `console.log(${JSON.stringify('terrafund '.repeat(300))});`,
    'assets/index-Ef56Gh78.css': `body{color:#111}`.repeat(100),
    'favicon.svg': `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>`,
    '.vite/manifest.json': '{"index.html":{"file":"assets/index-Ab12Cd34.js","isEntry":true}}',
  };
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
    if (name.startsWith('.vite')) continue;
    writeFileSync(path.join(dir, `${name}.br`), brotliCompressSync(text));
    writeFileSync(path.join(dir, `${name}.gz`), gzipSync(text));
  }
  return { dir, files };
}

describe('web app files and response compression', () => {
  let ctx: TestContext;
  let dist: ReturnType<typeof fakeDist>;
  beforeAll(async () => {
    dist = fakeDist();
    // The build's own contact details: the drawn pages are sent as built.
    ctx = await createTestApp({ config: { webDistDir: dist.dir, contact: { ...DEFAULT_CONTACT } } });
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(dist.dir, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) =>
    ctx.app.inject({ method: 'GET', url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

  it('sends the precompressed Brotli file of a hashed asset to a browser that accepts it, cached for a year', async () => {
    const response = await get('/assets/index-Ab12Cd34.js', 'gzip, deflate, br, zstd');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(response.headers['cache-control']).toBe(IMMUTABLE_CACHE);
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(dist.files['assets/index-Ab12Cd34.js']);
  });

  it('sends the .gz file to a client that accepts only gzip, and the plain file to one that accepts neither', async () => {
    const gzip = await get('/assets/index-Ef56Gh78.css', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers['content-type']).toMatch(/^text\/css/);
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(dist.files['assets/index-Ef56Gh78.css']);
    expect(gzip.headers['cache-control']).toBe(IMMUTABLE_CACHE);

    for (const encoding of [undefined, 'identity']) {
      const plain = await get('/assets/index-Ef56Gh78.css', encoding);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(dist.files['assets/index-Ef56Gh78.css']);
      expect(plain.headers['cache-control']).toBe(IMMUTABLE_CACHE);
    }
  });

  it.each([
    ['/', 'prerendered/home.html'],
    ['/login?next=%2Fwallet', 'prerendered/login.html'],
  ])('answers %s with its pre-rendered page, compressed and never cached', async (url, file) => {
    const response = await get(url, 'br, gzip');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(dist.files[file]);
  });

  it('allows the page\'s inline script by its hash and no other inline script', async () => {
    const csp = String((await get('/dashboard')).headers['content-security-policy']);
    const hash = createHash('sha256').update(THEME_SCRIPT).digest('base64');
    expect(csp).toMatch(new RegExp(`script-src 'self' 'sha256-${hash.replace(/[+/]/g, '\\$&')}';`));
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  });

  it('sends a page the whole set of security headers, and a JSON answer those that mean something for it', async () => {
    const page = (await get('/dashboard')).headers;
    for (const name of ['content-security-policy', 'permissions-policy', ...Object.keys(DOCUMENT_HEADERS), ...ANY_ANSWER]) {
      expect(page[name], name).toBeTruthy();
    }
    const api = (await get('/api/config')).headers;
    // Nothing may load or run in a JSON answer, not even the page's own inline scripts.
    expect(api['content-security-policy']).toBe(API_CONTENT_SECURITY_POLICY);
    expect(api['cache-control']).toBe('no-store');
    for (const name of ANY_ANSWER) expect(api[name], name).toBe(page[name]);
    for (const name of Object.keys(DOCUMENT_HEADERS)) expect(api[name], name).toBeUndefined();
  });

  it('sends the same headers with the router\'s own errors (a path it cannot decode), raised before any hook runs', async () => {
    const api = (await get('/api/config')).headers;
    const response = await get('/api/users/%E0%A4%A');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
    for (const name of ['content-security-policy', 'cache-control', ...ANY_ANSWER]) expect(response.headers[name], name).toBe(api[name]);
    for (const name of Object.keys(DOCUMENT_HEADERS)) expect(response.headers[name], name).toBeUndefined();
  });

  it.each(['/dashboard', '/wallet/payment/success?x=1', '/register'])('answers %s with index.html, compressed and never cached', async (url) => {
    const response = await get(url, 'br, gzip');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(dist.files['index.html']);
  });

  it.each(['/projects/6650f1c2a9b1e2d3c4f5a6b7', '/admin/users/42/', '/Dashboard', '/projects/%E2%9C%93'])(
    'answers %s, a route of the app (with its params), with index.html',
    async (url) => {
      const response = await get(url);
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(dist.files['index.html']);
    },
  );

  it.each(['/backup.sql', '/.env', '/login.bak', '/projects/1/edit', '//evil.example', '/assets/missing-Zz99.js'])(
    'answers %s, neither a route of the app nor a file, 404 with the app\'s not-found page and a page\'s headers',
    async (url) => {
      const response = await get(url, 'br, gzip');
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['content-encoding']).toBe('br');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers.etag).toBeUndefined();
      for (const name of ['content-security-policy', 'permissions-policy', ...Object.keys(DOCUMENT_HEADERS), ...ANY_ANSWER]) {
        expect(response.headers[name], name).toBeTruthy();
      }
      expect(response.headers['content-security-policy']).toBe((await get('/login')).headers['content-security-policy']);
      expect(brotliDecompressSync(response.rawPayload).toString()).toBe(dist.files['prerendered/not-found.html']);
    },
  );

  it('answers a HEAD of an unknown address 404 too, and an unknown API address with its JSON 404', async () => {
    const head = await ctx.app.inject({ method: 'HEAD', url: '/backup.sql' });
    expect(head.statusCode).toBe(404);
    expect(head.rawPayload.length).toBe(0);
    const api = await get('/api/backup.sql');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ message: 'Route GET /api/backup.sql not found', code: 'NOT_FOUND' });
  });

  it('revalidates unhashed files (favicon.svg) on every use', async () => {
    const response = await get('/favicon.svg', 'gzip');
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('does not serve the build manifest', async () => {
    const response = await get('/.vite/manifest.json');
    expect(response.body).not.toContain('isEntry');
  });

  it(`compresses JSON answers above ${COMPRESS_THRESHOLD_BYTES} bytes for clients that accept it`, async () => {
    const plain = await get('/api/docs');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESS_THRESHOLD_BYTES);

    const br = await get('/api/docs', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);

    const gzip = await get('/api/docs', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString())).toEqual(plain.json());
  });

  it(`leaves JSON answers of ${COMPRESS_THRESHOLD_BYTES} bytes or less as they are`, async () => {
    const response = await get('/api/config', 'gzip, br');
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.length).toBeLessThan(COMPRESS_THRESHOLD_BYTES);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.json()).toHaveProperty('contactEmail');
  });

  it('streams stored files (a project document) as they are, never re-encoded', async () => {
    const { adminToken } = await createMemberAndAdmin(ctx);
    const document = pdf();
    const asset = await uploaded(ctx, adminToken, 'document', document, 'fact-sheet.pdf');
    const response = await get(asset.url, 'gzip, br');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.rawPayload.equals(document)).toBe(true);
  });
});

describe('the drawn landing page on a server with its own contact details', () => {
  let ctx: TestContext;
  let dist: ReturnType<typeof fakeDist>;
  const contact = { email: 'desk&co@invest.example', phone: '+44 20 7946 0958' };
  beforeAll(async () => {
    dist = fakeDist();
    ctx = await createTestApp({ config: { webDistDir: dist.dir, contact } });
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(dist.dir, { recursive: true, force: true });
  });

  const own = (files: Record<string, string>) =>
    files['prerendered/home.html']!.replace(
      DRAWN_CONTACT,
      '<a href="mailto:desk&amp;co@invest.example"><span>desk&amp;co@invest.example</span></a><a href="tel:+442079460958">+44 20 7946 0958</a>',
    );

  it.each([
    ['br, gzip', 'br', brotliDecompressSync],
    ['gzip', 'gzip', gunzipSync],
    ['', undefined, (b: Buffer) => b],
  ] as const)('sends its own details in the page (Accept-Encoding %j), as the app shows them', async (accept, encoding, decode) => {
    const response = await ctx.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': accept } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-encoding']).toBe(encoding);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(decode(response.rawPayload).toString()).toBe(own(dist.files));
  });

  it('answers a revalidation of an unchanged page with 304, and leaves pages without contact details as built', async () => {
    const first = await ctx.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'br' } });
    const again = await ctx.app.inject({ method: 'GET', url: '/', headers: { 'if-none-match': String(first.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    const login = await ctx.app.inject({ method: 'GET', url: '/login', headers: { 'accept-encoding': 'br' } });
    expect(brotliDecompressSync(login.rawPayload).toString()).toBe(dist.files['prerendered/login.html']);
  });
});

describe('a form posted to a page of the app (scripts blocked)', () => {
  let ctx: TestContext;
  let dist: ReturnType<typeof fakeDist>;
  const lines: string[] = [];
  const password = 'posted-Pa55word-never-logged';
  beforeAll(async () => {
    dist = fakeDist();
    const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) });
    ctx = await createTestApp({ config: { webDistDir: dist.dir, contact: { ...DEFAULT_CONTACT } }, logger });
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(dist.dir, { recursive: true, force: true });
  });

  const post = (url: string, contentType = 'application/x-www-form-urlencoded') =>
    ctx.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': contentType },
      payload: contentType.startsWith('multipart')
        ? `--b\r\ncontent-disposition: form-data; name="password"\r\n\r\n${password}\r\n--b--\r\n`
        : `email=someone%40example.com&password=${password}`,
    });

  it.each([
    ['/login', '/login'],
    ['/login?next=%2Fwallet', '/login?next=%2Fwallet'],
    ['/', '/'],
  ])('answers POST %s with 303 See Other to the same address, which then shows the page', async (url, location) => {
    const response = await post(url);
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(location);
    expect(response.body).toBe('');
    expect(response.headers['content-security-policy']).toBe((await ctx.app.inject({ method: 'GET', url })).headers['content-security-policy']);
    const page = await ctx.app.inject({ method: 'GET', url: location });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
  });

  it('answers a multipart post the same way, and signs no one in', async () => {
    const response = await post('/login', 'multipart/form-data; boundary=b');
    expect(response.statusCode).toBe(303);
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(response.body).not.toContain('token');
  });

  it('answers a post to an address that is no page of the app with the JSON 404, never a 500', async () => {
    for (const url of ['/login.bak', '/api/login']) {
      const response = await post(url);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
  });

  it('reads and logs none of the posted fields', async () => {
    await post('/login');
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain(password);
    expect(lines.join('\n')).not.toContain('someone');
  });
});

describe('routeMatcher', () => {
  const isRoute = routeMatcher(['/', '/login', '/projects/:id', '/admin/users/:userId']);
  it.each([
    ['/', true],
    ['/login', true],
    ['/LOGIN/', true],
    ['/l%6Fgin', true],
    ['/projects/abc', true],
    ['/projects/abc/', true],
    ['/admin/users/x%2Fy', true],
    ['/projects', false],
    ['/projects/', false],
    ['/projects/a/b', false],
    ['//', false],
    ['//login', false],
    ['/login.bak', false],
    ['/loginx', false],
    ['/%E0%A4%A', false],
  ])('%s is a route: %s', (pathname, expected) => {
    expect(isRoute(pathname)).toBe(expected);
  });
});

describe('the drawn pages in the visitor’s language (issue 35)', () => {
  let ctx: TestContext;
  let dir: string;
  const page = (text: string, language: string) =>
    `<!doctype html><html lang="${language}"><head></head><body><div id="root" data-prerendered><main>${text}</main></div></body></html>`;
  beforeAll(async () => {
    ({ dir } = fakeDist());
    const files: Record<string, string> = {
      'prerendered/pages.json': JSON.stringify({
        '/': { en: 'prerendered/home.html', es: 'prerendered/home.es.html', fr: 'prerendered/home.fr.html' },
        '/login': { en: 'prerendered/login.html', es: 'prerendered/login.es.html', fr: 'prerendered/login.fr.html' },
        '/dashboard': 'prerendered/dashboard.html',
      }),
      'prerendered/home.es.html': page('Bienvenido', 'es'),
      'prerendered/home.fr.html': page('Bienvenue', 'fr'),
      'prerendered/login.es.html': page('Iniciar sesión', 'es'),
      'prerendered/login.fr.html': page('Se connecter', 'fr'),
      'prerendered/not-found.es.html': page('404 No encontrada', 'es'),
      'prerendered/not-found.fr.html': page('404 Introuvable', 'fr'),
      'prerendered/dashboard.html': page('', 'en'),
      'prerendered/routes.json': JSON.stringify({
        routes: ['/', '/login', '/dashboard'],
        drawn: ['/', '/login'],
        notFound: 'prerendered/not-found.html',
        notFoundByLanguage: { en: 'prerendered/not-found.html', es: 'prerendered/not-found.es.html', fr: 'prerendered/not-found.fr.html' },
      }),
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
    ctx = await createTestApp({ config: { webDistDir: dir, contact: { ...DEFAULT_CONTACT } } });
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string>) => ctx.app.inject({ method: 'GET', url, headers });

  it.each([
    ['Accept-Language', '/', { 'accept-language': 'es-ES,es;q=0.9,en;q=0.8' }, 'Bienvenido'],
    ['Accept-Language by weight', '/login', { 'accept-language': 'de;q=1, fr-CA;q=0.8, es;q=0.5' }, 'Se connecter'],
    ['the lang cookie over Accept-Language', '/', { 'accept-language': 'es', cookie: 'theme=dark; lang=fr' }, 'Bienvenue'],
    ['English for a language it does not speak', '/', { 'accept-language': 'de-DE' }, 'Welcome'],
    ['English for a cookie naming no language of its own', '/login', { cookie: 'lang=xx' }, 'Sign in'],
  ])('sends the drawn page by %s', async (_name, url, headers, text) => {
    const response = await get(url, headers);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(`<main>${text}</main>`);
    expect(response.headers.vary).toMatch(/^Accept-Language, Cookie, accept-encoding$/i);
  });

  it('sends the not-found page in the visitor’s language, with a 404', async () => {
    const response = await get('/no-such-page', { 'accept-language': 'fr', 'accept-encoding': 'br' });
    expect(response.statusCode).toBe(404);
    expect(brotliDecompressSync(response.rawPayload).toString()).toContain('<main>404 Introuvable</main>');
    expect(response.headers.vary).toBe('Accept-Language, Cookie, Accept-Encoding');
  });

  it('sends a member’s screen, which has one page for every language, whatever the language, varying by encoding only', async () => {
    const response = await get('/dashboard', { 'accept-language': 'es' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(page('', 'en'));
    expect(response.headers.vary).not.toMatch(/accept-language/i);
  });
});

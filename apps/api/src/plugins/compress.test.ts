import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { ASYNC_COMPRESS_BYTES, COMPRESS_THRESHOLD_BYTES, negotiateEncoding, registerCompression } from './compress';

describe('choosing the coding from Accept-Encoding', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['identity', undefined],
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['BR;Q=0.5, GZIP;q=0.8', 'gzip'],
    ['br;q=0.8, gzip;q=0.8', 'br'],
    ['*', 'br'],
    ['*;q=0.5, gzip', 'gzip'],
    ['*, br;q=0', 'gzip'],
    ['br;q=0, gzip;q=0', undefined],
    ['*;q=0', undefined],
    ['gzip;q=nonsense', undefined],
    ['gzip;q=2', undefined],
    [' , ;q=1, gzip ; q=0.3 ', 'gzip'],
  ] as const)('%j gives %s', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
});

describe('compressing answers', () => {
  async function app() {
    const server = Fastify({ logger: false });
    await registerCompression(server);
    const big = { items: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `item ${i}`, note: 'é' })) };
    server.get('/big', async () => big);
    server.get('/small', async () => ({ ok: true }));
    server.get('/exact', async (_request, reply) => reply.type('application/json').send('x'.repeat(COMPRESS_THRESHOLD_BYTES)));
    server.get('/wide', async (_request, reply) => reply.type('application/json').send(`"${'é'.repeat(600)}"`));
    server.get('/csv', async (_request, reply) => reply.type('text/csv').send('a,b\n'.repeat(1000)));
    server.get('/problem', async (_request, reply) => reply.type('application/problem+json').send(JSON.stringify(big)));
    server.get('/buffer', async (_request, reply) => reply.type('application/json').send(Buffer.from(JSON.stringify(big))));
    server.get('/encoded', async (_request, reply) => reply.type('application/json').header('content-encoding', 'identity').send(JSON.stringify(big)));
    server.get('/varied', async (_request, reply) => reply.header('vary', 'Origin').send(big));
    await server.ready();
    return { server, big };
  }

  it('compresses JSON above the threshold with the coding the client prefers, and says so', async () => {
    const { server, big } = await app();
    const br = await server.inject({ url: '/big', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(big);
    const gzip = await server.inject({ url: '/big', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString())).toEqual(big);
    for (const url of ['/problem', '/buffer']) {
      const response = await server.inject({ url, headers: { 'accept-encoding': 'br' } });
      expect(response.headers['content-encoding'], url).toBe('br');
    }
    const wide = await server.inject({ url: '/wide', headers: { 'accept-encoding': 'br' } });
    expect(wide.headers['content-encoding']).toBe('br');
    const varied = await server.inject({ url: '/varied', headers: { 'accept-encoding': 'br' } });
    expect(varied.headers.vary).toBe('Origin, Accept-Encoding');
    await server.close();
  });

  it('leaves alone small JSON, other types, replies already encoded and clients that accept no coding', async () => {
    const { server } = await app();
    const cases = [
      ['/small', 'gzip, br'],
      ['/exact', 'gzip, br'],
      ['/csv', 'gzip, br'],
      ['/encoded', 'gzip, br'],
      ['/big', undefined],
      ['/big', 'identity'],
      ['/big', 'br;q=0, gzip;q=0'],
    ] as const;
    for (const [url, accept] of cases) {
      const response = await server.inject({ url, headers: accept ? { 'accept-encoding': accept } : {} });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding'] ?? 'none', `${url} ${accept}`).toBe(url === '/encoded' ? 'identity' : 'none');
      expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
    }
    const plain = await server.inject({ url: '/big', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.vary).toBe('Accept-Encoding');
    await server.close();
  });

  it('compresses a body above 64 KiB off the event loop: a small request is answered meanwhile', async () => {
    const server = Fastify({ logger: false });
    await registerCompression(server);
    // Varied enough that Brotli takes tens of milliseconds over it.
    const huge = { items: Array.from({ length: 60_000 }, (_, i) => ({ id: i, name: `item ${i * 7919}`, note: (i * 104_729).toString(36) })) };
    server.get('/huge', async () => huge);
    server.get('/tiny', async () => ({ ok: true }));
    await server.ready();
    for (const accept of ['br', 'gzip']) {
      const finished: string[] = [];
      const big = server.inject({ url: '/huge', headers: { 'accept-encoding': accept } }).then((response) => {
        finished.push('huge');
        return response;
      });
      // Let the huge request reach its compression before asking for the tiny one.
      await new Promise((resolve) => setImmediate(resolve));
      const small = server.inject({ url: '/tiny' }).then(() => finished.push('tiny'));
      const [response] = await Promise.all([big, small]);
      expect(finished, accept).toEqual(['tiny', 'huge']);
      expect(response.headers['content-encoding']).toBe(accept);
      expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
      const text = (accept === 'br' ? brotliDecompressSync(response.rawPayload) : gunzipSync(response.rawPayload)).toString();
      expect(text.length).toBeGreaterThan(ASYNC_COMPRESS_BYTES);
      expect(JSON.parse(text)).toEqual(huge);
    }
    await server.close();
  });
});

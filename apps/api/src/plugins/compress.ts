import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';

/** Below this a compressed body saves less than the headers and the work cost (issue 17: JSON above 1 KiB). */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * Above this a body is compressed on libuv's thread pool (zlib's asynchronous API), so the event loop serves other
 * requests meanwhile: Brotli takes about a millisecond per 100 KiB here. Below it the synchronous call is cheaper
 * than the hand-off, and takes a few tens of microseconds at most.
 */
export const ASYNC_COMPRESS_BYTES = 64 * 1024;

/** JSON only: files (KYC documents, project pictures and PDFs) are streamed as stored, never re-encoded. */
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json(?:;|$)/;

/** Brotli at quality 4: a few times smaller than the JSON, at a cost close to gzip's (@fastify/compress's default). */
const BROTLI = { params: { [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_QUALITY]: 4 } };

type Encoding = 'br' | 'gzip';

/**
 * The coding to answer with for an `Accept-Encoding` header (RFC 9110, 12.5.3): Brotli or gzip, whichever the
 * client weighs higher (Brotli on a tie), `*` standing for any coding it does not name; none when it accepts
 * neither (no header, `identity`, or both at q=0).
 */
export function negotiateEncoding(header: string | undefined): Encoding | undefined {
  if (!header) return undefined;
  const weights: Record<string, number> = {};
  for (const part of header.split(',')) {
    const [name = '', ...parameters] = part.split(';');
    const coding = name.trim().toLowerCase();
    if (!coding) continue;
    let weight = 1;
    for (const parameter of parameters) {
      const [key, value] = parameter.split('=');
      if (key?.trim().toLowerCase() === 'q') {
        const q = Number(value?.trim());
        weight = Number.isFinite(q) && q >= 0 && q <= 1 ? q : 0;
      }
    }
    weights[coding] = Math.max(weights[coding] ?? 0, weight);
  }
  const weight = (coding: Encoding) => weights[coding] ?? weights['*'] ?? 0;
  const br = weight('br');
  const gzip = weight('gzip');
  if (br <= 0 && gzip <= 0) return undefined;
  return br >= gzip ? 'br' : 'gzip';
}

/**
 * Compresses the API's JSON answers above 1 KiB for clients that accept it (Brotli at quality 4, else gzip), with
 * `Vary: Accept-Encoding`; those above 64 KiB off the event loop. Registered inside the /api scope only: the web app's
 * files are compressed once at build and sent by plugins/web.ts as they are. Streams (stored files) and a reply that
 * already carries a Content-Encoding are left alone.
 *
 * One hook that first looks at the size: most answers are small, and @fastify/compress, which this replaces, spent
 * about a microsecond on each of them (two hooks, header look-ups and parsing Accept-Encoding before it looked at
 * the size), and its Accept-Encoding parser answers Brotli to a client that refused it (docs/decisions.md).
 */
export async function registerCompression(api: FastifyInstance) {
  api.addHook('onSend', (request, reply, payload, done) => {
    const isText = typeof payload === 'string';
    if (!isText && !Buffer.isBuffer(payload)) return done(null, payload);
    // A string's UTF-8 form is at most three bytes a character: only a long enough one needs measuring.
    if (payload.length * (isText ? 3 : 1) <= COMPRESS_THRESHOLD_BYTES) return done(null, payload);
    const size = isText ? Buffer.byteLength(payload) : payload.length;
    if (size <= COMPRESS_THRESHOLD_BYTES || reply.statusCode === 206 || reply.hasHeader('content-encoding') || reply.hasHeader('content-range')) {
      return done(null, payload);
    }
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string' || !JSON_TYPE.test(type)) return done(null, payload);
    const vary = reply.getHeader('vary');
    reply.header('vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding');
    const encoding = negotiateEncoding(request.headers['accept-encoding']);
    if (!encoding) return done(null, payload);
    const send = (compressed: Buffer) => {
      reply.header('content-encoding', encoding);
      reply.header('content-length', compressed.length);
      done(null, compressed);
    };
    if (size <= ASYNC_COMPRESS_BYTES) return send(encoding === 'br' ? brotliCompressSync(payload, BROTLI) : gzipSync(payload));
    const compressed = (error: Error | null, result: Buffer) => (error ? done(error) : send(result));
    if (encoding === 'br') brotliCompress(payload, BROTLI, compressed);
    else gzip(payload, compressed);
  });
}

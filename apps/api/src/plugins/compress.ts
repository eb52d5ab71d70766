import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Below this a compressed body saves less than the headers and the work cost (issue 17: JSON above 1 KiB). */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/** JSON only: files (KYC documents, project pictures and PDFs) are streamed as stored, never re-encoded. */
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json(?:;|$)/;

/**
 * Compresses the API's JSON answers above 1 KiB for clients that accept it (Brotli at quality 4, else gzip).
 * Registered inside the /api scope only: the web app's files are compressed once at build and sent by
 * plugins/web.ts as they are. A reply that already carries a Content-Encoding is left alone.
 */
export async function registerCompression(api: FastifyInstance) {
  await api.register(fastifyCompress, {
    global: true,
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    customTypes: JSON_TYPE,
    // Requests are never compressed by our clients; a compressed upload would only be a way round body limits.
    globalDecompression: false,
  });
}

import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { messages } from '@terrafund/contracts';
import { AppError } from './app-error';

/** Room for the multipart envelope around a file of the maximum size. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/**
 * Every upload route of ours takes one file and a few short text fields: registers @fastify/multipart on the
 * routes of `app` with those limits, the file at most `maxFileBytes`.
 */
export async function acceptUploads(app: FastifyInstance, maxFileBytes: number) {
  await app.register(multipart, {
    limits: { fileSize: maxFileBytes, files: 1, fields: 4, fieldSize: 200, parts: 6, headerPairs: 50 },
  });
}

/** An onRequest hook that refuses an oversized request before reading any of it. */
export const refuseOversized = (maxFileBytes: number, tooLarge: (request: FastifyRequest) => AppError) => async (request: FastifyRequest) => {
  const length = Number(request.headers['content-length'] ?? 0);
  if (length > maxFileBytes + MULTIPART_OVERHEAD_BYTES) throw tooLarge(request);
};

type UploadOptions<T> = {
  /** The text field that says what the file is (`documentType`, `kind`), and its parser (throws when invalid). */
  field: string;
  parseField: (value: unknown) => T;
  /** The field's value before the body is read (from the query string), which the body's field replaces. */
  initial?: () => T | undefined;
  /** The answers to a body that is not multipart, to a file over the limit, to a missing field, to a missing file. */
  notMultipart: () => AppError;
  tooLarge: (field: T | undefined) => AppError;
  fieldMissing: () => AppError;
  fileMissing: string;
};

/**
 * Reads an upload: the first file part named `file` and the text field `options.field`; any other file is
 * drained unread. Whatever the multipart parser raises (a truncated body, no boundary, a malformed part header)
 * is the caller's fault: a 400, never a 500.
 */
export async function readUpload<T>(request: FastifyRequest, options: UploadOptions<T>): Promise<{ field: T; file: { bytes: Buffer; name: string } }> {
  if (!request.isMultipart()) throw options.notMultipart();
  let field = options.initial?.();
  let file: { bytes: Buffer; name: string } | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || file) {
          part.file.resume();
          continue;
        }
        file = { bytes: await part.toBuffer(), name: part.filename };
      } else if (part.fieldname === options.field) {
        field = options.parseField(part.value);
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw options.tooLarge(field);
    throw new AppError('VALIDATION_ERROR', messages.validation.invalidInput);
  }
  if (field === undefined) throw options.fieldMissing();
  if (!file || file.bytes.length === 0) {
    throw new AppError('VALIDATION_ERROR', options.fileMissing, { fields: { file: options.fileMissing } });
  }
  return { field, file };
}

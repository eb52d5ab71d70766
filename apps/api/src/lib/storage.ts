import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Private file storage. Keys are random and carry no user data; nothing here is served statically.
 * The local-disk implementation is the default; an S3-compatible bucket (storage-s3.ts) implements the same calls.
 */
export type FileStorage = {
  put(prefix: string, bytes: Buffer): Promise<string>;
  get(key: string): Promise<Buffer>;
  delete(key: string): Promise<void>;
  /** Resolves when the store answers; the readiness check (GET /api/health) calls it for remote stores. */
  check?(): Promise<void>;
};

const KEY_PATTERN = /^[a-z-]+\/[A-Za-z0-9_-]{32}$/;

/**
 * The store did not take or give a file because it is unreachable or failing (a bucket that is down, a disk that is
 * full or read-only), not because the key is unknown: the request failed for an outage, answered 503 with
 * Retry-After (plugins/errors.ts), and the same request works once the store is back.
 */
export class StorageUnavailableError extends Error {
  constructor(operation: 'put' | 'get' | 'delete' | 'check', cause: unknown) {
    super(`file storage unavailable (${operation}): ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'StorageUnavailableError';
  }
}

export const isStorageUnavailable = (error: unknown): error is StorageUnavailableError => error instanceof StorageUnavailableError;

/** A missing file is the caller's to report (404); anything else the disk says is the store failing. */
const diskFailure = (operation: 'put' | 'get', error: unknown) =>
  operation === 'get' && (error as { code?: unknown }).code === 'ENOENT' ? error : new StorageUnavailableError(operation, error);

export const newStorageKey = (prefix: string) => `${prefix}/${randomBytes(24).toString('base64url')}`;

/** Keys are made here, but a corrupted row must still never reach outside the root (or the bucket's prefix). */
export function assertStorageKey(key: string) {
  if (!KEY_PATTERN.test(key)) throw new Error('invalid storage key');
}

export function localDiskStorage(root: string): FileStorage {
  const resolve = (key: string) => {
    assertStorageKey(key);
    return path.join(root, key);
  };
  return {
    async put(prefix, bytes) {
      const key = newStorageKey(prefix);
      const file = resolve(key);
      try {
        await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
        await writeFile(file, bytes, { mode: 0o600, flag: 'wx' });
      } catch (error) {
        throw diskFailure('put', error);
      }
      return key;
    },
    // async, so a refused key is a rejected promise like any other failure, never a synchronous throw.
    async get(key) {
      const file = resolve(key);
      try {
        return await readFile(file);
      } catch (error) {
        throw diskFailure('get', error);
      }
    },
    delete: async (key) => rm(resolve(key), { force: true }),
  };
}

/** Keeps files in memory; for tests. */
export function memoryStorage(): FileStorage & { files: Map<string, Buffer> } {
  const files = new Map<string, Buffer>();
  return {
    files,
    async put(prefix, bytes) {
      const key = newStorageKey(prefix);
      files.set(key, Buffer.from(bytes));
      return key;
    },
    async get(key) {
      const file = files.get(key);
      if (!file) throw new Error('not found');
      return file;
    },
    async delete(key) {
      files.delete(key);
    },
  };
}

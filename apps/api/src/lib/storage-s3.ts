import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { S3Settings } from '../config';
import { assertStorageKey, newStorageKey, StorageUnavailableError, type FileStorage } from './storage';

/** S3's word for an unknown key (NoSuchKey, or a bare 404 from servers that send no body). */
function isMissingObject(error: unknown): boolean {
  const { name, $metadata } = error as { name?: unknown; $metadata?: { httpStatusCode?: number } };
  return name === 'NoSuchKey' || name === 'NotFound' || $metadata?.httpStatusCode === 404;
}

/**
 * Files in an S3-compatible bucket (AWS S3, MinIO, Ceph…), so that every instance behind the proxy reads what any
 * other one wrote. The bucket stays private: files are only ever read through the API, which checks who asks
 * (a session, or a link signed with APP_SECRET), so a link handed out by one instance opens through any other.
 */
export function s3Storage(settings: S3Settings): FileStorage & { client: S3Client } {
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.credentials,
    // A few quick retries; a bucket that stays down is reported by the readiness check, not waited for here.
    maxAttempts: 3,
    // A bucket that accepts connections but never answers must not hold an upload (and its request) for minutes:
    // a connection is given 3 s, a silent socket 20 s (enough for a 10 MB body to a slow but working bucket).
    requestHandler: { connectionTimeout: 3_000, requestTimeout: 20_000 },
  });
  const Bucket = settings.bucket;
  /**
   * Every call's failure but a missing object is the bucket being unreachable or failing (refused connection,
   * timeout, 5xx, a bucket that vanished): a StorageUnavailableError, which the API answers with 503.
   */
  const unavailable = <T>(operation: 'put' | 'get' | 'delete' | 'check', call: () => Promise<T>): Promise<T> =>
    call().catch((error: unknown) => {
      if (operation === 'get' && isMissingObject(error)) throw error;
      throw new StorageUnavailableError(operation, error);
    });
  return {
    client,
    async put(prefix, bytes) {
      const key = newStorageKey(prefix);
      assertStorageKey(key);
      await unavailable('put', () => client.send(new PutObjectCommand({ Bucket, Key: key, Body: bytes, ContentType: 'application/octet-stream' })));
      return key;
    },
    async get(key) {
      assertStorageKey(key);
      return unavailable('get', async () => {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        if (!object.Body) throw new Error('not found');
        return Buffer.from(await object.Body.transformToByteArray());
      });
    },
    async delete(key) {
      assertStorageKey(key);
      // S3 answers a delete of a missing object with success, like the local disk's `rm --force`.
      await unavailable('delete', () => client.send(new DeleteObjectCommand({ Bucket, Key: key })));
    },
    async check() {
      await unavailable('check', () => client.send(new HeadBucketCommand({ Bucket })));
    },
  };
}

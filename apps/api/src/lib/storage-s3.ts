import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { S3Settings } from '../config';
import { assertStorageKey, newStorageKey, type FileStorage } from './storage';

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
  });
  const Bucket = settings.bucket;
  return {
    client,
    async put(prefix, bytes) {
      const key = newStorageKey(prefix);
      assertStorageKey(key);
      await client.send(new PutObjectCommand({ Bucket, Key: key, Body: bytes, ContentType: 'application/octet-stream' }));
      return key;
    },
    async get(key) {
      assertStorageKey(key);
      const object = await client.send(new GetObjectCommand({ Bucket, Key: key }));
      if (!object.Body) throw new Error('not found');
      return Buffer.from(await object.Body.transformToByteArray());
    },
    async delete(key) {
      assertStorageKey(key);
      // S3 answers a delete of a missing object with success, like the local disk's `rm --force`.
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    async check() {
      await client.send(new HeadBucketCommand({ Bucket }));
    },
  };
}

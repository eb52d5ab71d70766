import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isStorageUnavailable, newStorageKey } from './storage';
import { s3Storage } from './storage-s3';

/** The S3 storage against a real S3-compatible server (s3rver) on 127.0.0.1, with the AWS SDK as in production. */
describe('s3Storage', () => {
  const bucket = 'terrafund-unit';
  let server: S3rver;
  let directory: string;
  let endpoint: string;
  const settings = () => ({
    bucket,
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });

  beforeAll(async () => {
    directory = mkdtempSync(path.join(os.tmpdir(), 'tf-s3rver-'));
    server = new S3rver({ port: 0, address: '127.0.0.1', directory, silent: true, configureBuckets: [{ name: bucket, configs: [] }] });
    const { port } = await server.run();
    endpoint = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await server.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('stores under a random key, reads the same bytes back (binary, 5 MB) and deletes', async () => {
    const storage = s3Storage(settings());
    const bytes = Buffer.alloc(5 * 1024 * 1024);
    for (let i = 0; i < bytes.length; i += 997) bytes[i] = i & 0xff;
    const key = await storage.put('kyc', bytes);
    expect(key).toMatch(/^kyc\/[A-Za-z0-9_-]{32}$/);
    expect((await storage.get(key)).equals(bytes)).toBe(true);
    // Another instance (another client) reads what this one wrote.
    expect((await s3Storage(settings()).get(key)).equals(bytes)).toBe(true);
    await storage.delete(key);
    await expect(storage.get(key)).rejects.toThrow();
    await expect(storage.delete(key)).resolves.toBeUndefined();
  });

  it('refuses keys that are not its own', async () => {
    const storage = s3Storage(settings());
    for (const key of ['../x', 'kyc/../../etc/passwd', '', `kyc/${'a'.repeat(31)}`, '/kyc/abc']) {
      await expect(storage.get(key)).rejects.toThrow('invalid storage key');
      await expect(storage.delete(key)).rejects.toThrow('invalid storage key');
    }
    await expect(storage.put('../kyc', Buffer.from('x'))).rejects.toThrow('invalid storage key');
  });

  it('fails to read a well-formed key that names nothing, as a missing file, not as an outage', async () => {
    const error = await s3Storage(settings()).get(newStorageKey('kyc')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(isStorageUnavailable(error)).toBe(false);
  });

  it('reports an unreachable bucket as unavailable on every call (the API answers 503 for it)', async () => {
    const down = s3Storage({ ...settings(), endpoint: 'http://127.0.0.1:9' });
    const key = newStorageKey('kyc');
    for (const call of [() => down.put('kyc', Buffer.from('x')), () => down.get(key), () => down.delete(key), () => down.check!()]) {
      const error = await call().catch((e: unknown) => e);
      expect(isStorageUnavailable(error)).toBe(true);
    }
  });

  it('check() answers when the bucket does, and fails for a missing bucket or an unreachable server', async () => {
    await expect(s3Storage(settings()).check!()).resolves.toBeUndefined();
    await expect(s3Storage({ ...settings(), bucket: 'no-such-bucket' }).check!()).rejects.toThrow();
    await expect(s3Storage({ ...settings(), endpoint: 'http://127.0.0.1:9' }).check!()).rejects.toThrow();
  });
});

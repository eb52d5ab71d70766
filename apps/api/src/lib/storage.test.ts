import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { localDiskStorage, memoryStorage, newStorageKey, type FileStorage } from './storage';

const KEY = /^kyc\/[A-Za-z0-9_-]{32}$/;

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

describe('newStorageKey', () => {
  it('is the prefix and 32 random url-safe characters', () => {
    const keys = new Set(Array.from({ length: 200 }, () => newStorageKey('kyc')));
    expect(keys.size).toBe(200);
    for (const key of keys) expect(key).toMatch(KEY);
  });
});

describe('localDiskStorage', () => {
  let base: string;
  let root: string;
  let storage: FileStorage;

  beforeEach(() => {
    base = mkdtempSync(path.join(os.tmpdir(), 'tf-storage-'));
    root = path.join(base, 'uploads');
    storage = localDiskStorage(root);
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('stores under a random key that carries no user data, and reads the same bytes back', async () => {
    const bytes = Buffer.from('jane.doe@example.com passport X1234567');
    const key = await storage.put('kyc', bytes);
    expect(key).toMatch(KEY);
    expect(key).not.toMatch(/jane|doe|example|passport|X1234567/i);
    expect(await storage.get(key)).toEqual(bytes);
    expect(filesUnder(root)).toEqual([key]);
  });

  it('gives each file its own key, even for identical bytes', async () => {
    const bytes = Buffer.from('same');
    const keys = await Promise.all(Array.from({ length: 20 }, () => storage.put('kyc', bytes)));
    expect(new Set(keys).size).toBe(20);
    expect(filesUnder(root)).toEqual([...keys].sort());
  });

  it('writes files readable by the owner only (0600) in a private directory (0700)', async () => {
    const key = await storage.put('kyc', Buffer.from('secret'));
    expect(statSync(path.join(root, key)).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(root, 'kyc')).mode & 0o777).toBe(0o700);
  });

  it('keeps binary content exactly, including large files', async () => {
    const bytes = Buffer.alloc(5 * 1024 * 1024);
    for (let i = 0; i < bytes.length; i += 997) bytes[i] = i & 0xff;
    const key = await storage.put('kyc', bytes);
    expect((await storage.get(key)).equals(bytes)).toBe(true);
  });

  it('deletes a file, and deleting a missing file is not an error', async () => {
    const key = await storage.put('kyc', Buffer.from('x'));
    await storage.delete(key);
    expect(filesUnder(root)).toEqual([]);
    await expect(storage.delete(key)).resolves.toBeUndefined();
    await expect(storage.get(key)).rejects.toThrow();
  });

  it('fails to read a well-formed key that names nothing', async () => {
    await expect(storage.get(newStorageKey('kyc'))).rejects.toThrow();
  });

  describe('refuses keys that could leave the storage root', () => {
    const outsideName = 'outside.txt';
    const badKeys = [
      '../outside.txt',
      `kyc/../../${outsideName}`,
      'kyc/../../../etc/passwd',
      '/etc/passwd',
      `${'/'}tmp/${outsideName}`,
      'kyc/..%2F..%2Foutside.txt',
      'kyc\\..\\..\\outside.txt',
      `kyc/${'a'.repeat(31)}/..`,
      `kyc/${'a'.repeat(30)}..`,
      `kyc/${'a'.repeat(32)}/../../../outside.txt`,
      `../${'a'.repeat(32)}`,
      `kyc/${'a'.repeat(31)}`,
      `kyc/${'a'.repeat(33)}`,
      `kyc/${'a'.repeat(31)}\0`,
      'KYC/' + 'a'.repeat(32),
      '',
      'kyc',
      'kyc/',
    ];

    it.each(badKeys)('get/delete %j', async (key) => {
      // A file just outside the root that a traversal would reach.
      writeFileSync(path.join(base, outsideName), 'must survive');
      await expect(storage.get(key)).rejects.toThrow('invalid storage key');
      await expect(storage.delete(key)).rejects.toThrow('invalid storage key');
      expect(existsSync(path.join(base, outsideName))).toBe(true);
    });

    it('and prefixes that would write outside it', async () => {
      for (const prefix of ['..', '../kyc', '/tmp', 'kyc/..', 'a/b', 'KYC', '']) {
        await expect(storage.put(prefix, Buffer.from('x')), prefix).rejects.toThrow('invalid storage key');
      }
      expect(filesUnder(base)).toEqual([]);
    });
  });
});

describe('memoryStorage', () => {
  it('stores copies under random keys, reads and deletes them', async () => {
    const storage = memoryStorage();
    const bytes = Buffer.from('abc');
    const key = await storage.put('kyc', bytes);
    bytes[0] = 0x7a;
    expect(key).toMatch(KEY);
    expect((await storage.get(key)).toString()).toBe('abc');
    expect([...storage.files.keys()]).toEqual([key]);
    await storage.delete(key);
    expect(storage.files.size).toBe(0);
    await expect(storage.get(key)).rejects.toThrow();
  });
});

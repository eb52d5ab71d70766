import { describe, expect, it } from 'vitest';
import { burnPasswordCheck, hashPassword, verifyPassword } from './password';

describe('password hashing', () => {
  it('hashes with argon2id at 19 MiB, 2 passes, 1 lane, salted, and verifies only the right password', async () => {
    const [a, b] = await Promise.all([hashPassword('correct horse'), hashPassword('correct horse')]);
    expect(a).not.toBe(b);
    const [, algorithm, , params] = a.split('$');
    expect(algorithm).toBe('argon2id');
    expect(Object.fromEntries(params!.split(',').map((p) => p.split('=')))).toEqual({ m: '19456', t: '2', p: '1' });
    expect(await verifyPassword(a, 'correct horse')).toBe(true);
    expect(await verifyPassword(b, 'correct horse')).toBe(true);
    expect(await verifyPassword(a, 'correct horsE')).toBe(false);
    expect(await verifyPassword(a, '')).toBe(false);
  });

  it('answers false, never throws, for a malformed stored hash', async () => {
    for (const stored of ['', 'plain-text', '$argon2id$broken', '$2b$10$abcdefghijklmnopqrstuv']) {
      expect(await verifyPassword(stored, 'anything')).toBe(false);
    }
  });

  it('spends a real verification on unknown accounts', async () => {
    await expect(burnPasswordCheck('whatever')).resolves.toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { createSecrets, randomCode, randomToken } from './crypto';

const secrets = createSecrets('one-application-secret-0123456789abcdef');
const otherSecrets = createSecrets('another-application-secret-0123456789ab');

describe('keyed hashes', () => {
  it('hashes deterministically as 64 hex characters that do not contain the value', () => {
    const hash = secrets.hash('123456');
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).toBe(secrets.hash('123456'));
    expect(hash).not.toContain('123456');
    expect(secrets.hash('123457')).not.toBe(hash);
  });

  it('depends on the application secret', () => {
    expect(otherSecrets.hash('123456')).not.toBe(secrets.hash('123456'));
    expect(otherSecrets.matches('123456', secrets.hash('123456'))).toBe(false);
  });

  it('matches the value it hashed and nothing else, and never throws on a malformed stored hash', () => {
    const stored = secrets.hash('user-1:654321');
    expect(secrets.matches('user-1:654321', stored)).toBe(true);
    expect(secrets.matches('user-1:654322', stored)).toBe(false);
    expect(secrets.matches('user-2:654321', stored)).toBe(false);
    for (const bad of ['', 'zz', stored.slice(0, 10), `${stored}00`]) {
      expect(secrets.matches('user-1:654321', bad)).toBe(false);
    }
  });
});

describe('sealed values', () => {
  it('round-trips text, with a fresh nonce each time', () => {
    const plain = JSON.stringify({ text: 'Your code is 424242', html: '<p>ünïcödé ✓</p>' });
    const a = secrets.encrypt(plain);
    const b = secrets.encrypt(plain);
    expect(a).not.toBe(b);
    expect(a).not.toContain('424242');
    expect(secrets.decrypt(a)).toBe(plain);
    expect(secrets.decrypt(b)).toBe(plain);
  });

  it('detects any tampering, and a different key', () => {
    const sealed = secrets.encrypt('reset link https://app.example/reset-password?token=abc');
    const [iv, tag, body] = sealed.split('.') as [string, string, string];
    const flip = (part: string) => {
      const bytes = Buffer.from(part, 'base64url');
      bytes[0] = bytes[0]! ^ 0x01;
      return bytes.toString('base64url');
    };
    expect(() => secrets.decrypt([iv, tag, flip(body)].join('.'))).toThrow();
    expect(() => secrets.decrypt([iv, flip(tag), body].join('.'))).toThrow();
    expect(() => secrets.decrypt([flip(iv), tag, body].join('.'))).toThrow();
    expect(() => secrets.decrypt([iv, tag].join('.'))).toThrow();
    expect(() => secrets.decrypt('')).toThrow();
    expect(() => otherSecrets.decrypt(sealed)).toThrow();
  });
});

describe('random values', () => {
  it('randomCode is 6 digits, and varies', () => {
    const codes = Array.from({ length: 500 }, () => randomCode());
    for (const code of codes) expect(code).toMatch(/^\d{6}$/);
    expect(new Set(codes).size).toBeGreaterThan(490);
    // Every digit shows up in every position over many codes: no fixed or biased position.
    for (let position = 0; position < 6; position += 1) {
      expect(new Set(codes.map((c) => c[position])).size).toBe(10);
    }
  });

  it('randomToken is URL-safe and carries the requested entropy', () => {
    const token = randomToken(32);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(randomToken(32)).not.toBe(token);
  });
});

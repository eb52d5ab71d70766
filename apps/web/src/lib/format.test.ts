import { describe, expect, it } from 'vitest';
import { shortId } from './format';

describe('shortId', () => {
  it('tells apart UUIDs version 7 written in the same minute (their first block is the time)', () => {
    const a = '019ab3c2-7e10-7a4f-9c1d-2b8e4f0a1c37';
    const b = '019ab3c2-7e10-7d02-8f6a-91c0d3e5b2a8';
    expect(shortId(a)).toBe('4f0a1c37');
    expect(shortId(b)).toBe('d3e5b2a8');
  });

  it('shows eight hex digits of a random UUID too', () => {
    expect(shortId('3f2b8c1e-5d4a-4e6f-9a7b-c8d9e0f1a2b3')).toBe('e0f1a2b3');
  });
});

import { describe, expect, it } from 'vitest';
import { AppError } from './app-error';
import { fixedClock } from './clock';
import { createRateLimiter } from './rate-limiter';

const rule = { limit: 3, windowSeconds: 60 };

function rateLimited(fn: () => void): AppError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected a rate-limit error');
}

describe('rate limiter', () => {
  it('allows the limit within a window, refuses the next hit with 429 and the seconds left', () => {
    const clock = fixedClock('2026-01-05T12:00:00Z');
    const limiter = createRateLimiter(clock);
    for (let i = 0; i < 3; i += 1) limiter.hit('k', rule);

    clock.advance(20_000);
    const error = rateLimited(() => limiter.hit('k', rule));
    expect(error.status).toBe(429);
    expect(error.code).toBe('RATE_LIMITED');
    expect(error.retryAfter).toBe(40);
    expect(error.message).toContain('40');

    clock.advance(39_500);
    expect(rateLimited(() => limiter.hit('k', rule)).retryAfter).toBe(1);
  });

  it('opens a new window once the old one has passed', () => {
    const clock = fixedClock();
    const limiter = createRateLimiter(clock);
    for (let i = 0; i < 3; i += 1) limiter.hit('k', rule);
    rateLimited(() => limiter.hit('k', rule));

    clock.advance(60_000);
    for (let i = 0; i < 3; i += 1) expect(() => limiter.hit('k', rule)).not.toThrow();
    rateLimited(() => limiter.hit('k', rule));
  });

  it('counts refused hits too, so hammering does not shorten the wait', () => {
    const clock = fixedClock();
    const limiter = createRateLimiter(clock);
    for (let i = 0; i < 3; i += 1) limiter.hit('k', rule);
    for (let i = 0; i < 10; i += 1) rateLimited(() => limiter.hit('k', rule));
    clock.advance(59_000);
    rateLimited(() => limiter.hit('k', rule));
  });

  it('keeps keys apart, and reset clears one key only', () => {
    const clock = fixedClock();
    const limiter = createRateLimiter(clock);
    for (let i = 0; i < 3; i += 1) {
      limiter.hit('a', rule);
      limiter.hit('b', rule);
    }
    rateLimited(() => limiter.hit('a', rule));
    limiter.reset('a');
    expect(() => limiter.hit('a', rule)).not.toThrow();
    rateLimited(() => limiter.hit('b', rule));
  });

  it('still limits after sweeping expired windows', () => {
    const clock = fixedClock();
    const limiter = createRateLimiter(clock);
    limiter.hit('old', rule);
    clock.advance(10 * 60_000);
    for (let i = 0; i < 3; i += 1) limiter.hit('new', rule);
    rateLimited(() => limiter.hit('new', rule));
    for (let i = 0; i < 3; i += 1) expect(() => limiter.hit('old', rule)).not.toThrow();
  });
});

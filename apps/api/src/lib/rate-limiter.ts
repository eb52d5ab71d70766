import { messages } from '@terrafund/contracts';
import { AppError } from './app-error';
import type { Clock } from './clock';

export type RateLimitRule = { limit: number; windowSeconds: number };

/**
 * A fixed-window counter per key. Keys are built by the caller from what an attacker cannot choose freely
 * (the socket address unless TRUST_PROXY is set, the normalised account e-mail), so a forged
 * X-Forwarded-For header buys nothing. The store is per process; see docs/decisions.md.
 */
export function createRateLimiter(clock: Clock) {
  const windows = new Map<string, { count: number; resetAt: number }>();
  let lastSweep = 0;

  function sweep(now: number) {
    if (now - lastSweep < 60_000) return;
    lastSweep = now;
    for (const [key, window] of windows) if (window.resetAt <= now) windows.delete(key);
  }

  return {
    /** Counts one hit; throws 429 with the seconds left once the rule's limit is passed. */
    hit(key: string, rule: RateLimitRule): void {
      const now = clock.now().getTime();
      sweep(now);
      let window = windows.get(key);
      if (!window || window.resetAt <= now) {
        window = { count: 0, resetAt: now + rule.windowSeconds * 1000 };
        windows.set(key, window);
      }
      window.count += 1;
      if (window.count > rule.limit) {
        const retryAfter = Math.max(1, Math.ceil((window.resetAt - now) / 1000));
        throw new AppError('RATE_LIMITED', messages.auth.tooManyRequests(retryAfter), { retryAfter });
      }
    },
    reset(key: string): void {
      windows.delete(key);
    },
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;

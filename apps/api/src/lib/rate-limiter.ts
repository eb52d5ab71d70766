import { messages } from '@terrafund/contracts';
import { AppError } from './app-error';
import type { Clock } from './clock';
import type { RedisClient } from './redis';

export type RateLimitRule = { limit: number; windowSeconds: number };

/** A fixed window: how many events it has counted and when it ends (milliseconds, by the app's clock). */
type ThrottleWindow = { count: number; resetAt: number };

/**
 * Counters the auth rules need beyond per-route request limits: failed sign-ins and the code-resend cooldown.
 * A window opens at a key's first event and lasts its own length. Keys are built by the caller from what an
 * attacker cannot choose freely (the address Fastify resolved under TRUST_PROXY, the normalised e-mail).
 * `group` files a key under a name that `clearGroup` forgets at once (an account's failures from every
 * address). In process memory, or in Redis when REDIS_URL is set so that every instance counts together.
 */
export interface ThrottleStore {
  hit(key: string, windowSeconds: number, group?: string): Promise<ThrottleWindow>;
  /** The keys' current windows, without counting (count 0 when none is open). */
  peek(keys: string[]): Promise<ThrottleWindow[]>;
  clear(keys: string[]): Promise<void>;
  clearGroup(group: string): Promise<void>;
}

const closed = (now: number): ThrottleWindow => ({ count: 0, resetAt: now });

/** Whole seconds until a window ends, at least 1 (what Retry-After and the message say). */
export const secondsUntil = (resetAt: number, now: number) => Math.max(1, Math.ceil((resetAt - now) / 1000));

/** The 429 every limit answers: the message, and the seconds to wait in the body and Retry-After. */
export const tooManyRequests = (retryAfter: number) =>
  new AppError('RATE_LIMITED', messages.auth.tooManyRequests(retryAfter), { retryAfter });

export function memoryThrottleStore(clock: Clock): ThrottleStore {
  const windows = new Map<string, ThrottleWindow>();
  const groups = new Map<string, Set<string>>();
  let lastSweep = 0;

  function sweep(now: number) {
    if (now - lastSweep < 60_000) return;
    lastSweep = now;
    for (const [key, window] of windows) if (window.resetAt <= now) windows.delete(key);
    for (const [group, keys] of groups) {
      for (const key of keys) if (!windows.has(key)) keys.delete(key);
      if (keys.size === 0) groups.delete(group);
    }
  }
  const live = (key: string, now: number) => {
    const window = windows.get(key);
    return window && window.resetAt > now ? window : undefined;
  };

  return {
    async hit(key, windowSeconds, group) {
      const now = clock.now().getTime();
      sweep(now);
      let window = live(key, now);
      if (!window) {
        window = { count: 0, resetAt: now + windowSeconds * 1000 };
        windows.set(key, window);
      }
      window.count += 1;
      if (group) {
        const keys = groups.get(group) ?? new Set<string>();
        keys.add(key);
        groups.set(group, keys);
      }
      return { ...window };
    },
    async peek(keys) {
      const now = clock.now().getTime();
      return keys.map((key) => {
        const window = live(key, now);
        return window ? { ...window } : closed(now);
      });
    },
    async clear(keys) {
      for (const key of keys) windows.delete(key);
    },
    async clearGroup(group) {
      for (const key of groups.get(group) ?? []) windows.delete(key);
      groups.delete(group);
    },
  };
}

/**
 * One window per hash {c: count, r: end}. The end is computed from the app's clock (passed in), so tests move
 * time as they do everywhere else; Redis's own expiry, set to the window's length, only collects old keys.
 */
const HIT_SCRIPT = `
local now = tonumber(ARGV[1])
local windowMs = tonumber(ARGV[2])
local resetAt = tonumber(redis.call('HGET', KEYS[1], 'r'))
local count
if resetAt and resetAt > now then
  count = redis.call('HINCRBY', KEYS[1], 'c', 1)
else
  count = 1
  resetAt = now + windowMs
  redis.call('HSET', KEYS[1], 'c', 1, 'r', resetAt)
  redis.call('PEXPIRE', KEYS[1], windowMs)
end
if #KEYS > 1 then
  redis.call('SADD', KEYS[2], KEYS[1])
  if redis.call('PTTL', KEYS[2]) < windowMs then redis.call('PEXPIRE', KEYS[2], windowMs) end
end
return {count, resetAt}
`;

const CLEAR_GROUP_SCRIPT = `
for _, key in ipairs(redis.call('SMEMBERS', KEYS[1])) do redis.call('DEL', key) end
redis.call('DEL', KEYS[1])
return 1
`;

export function redisThrottleStore(redis: RedisClient, clock: Clock, prefix: string): ThrottleStore {
  const windowKey = (key: string) => `${prefix}throttle:${key}`;
  const groupKey = (group: string) => `${prefix}throttle-group:${group}`;
  return {
    async hit(key, windowSeconds, group) {
      const keys = group ? [windowKey(key), groupKey(group)] : [windowKey(key)];
      const [count, resetAt] = (await redis.eval(
        HIT_SCRIPT,
        keys.length,
        ...keys,
        clock.now().getTime(),
        windowSeconds * 1000,
      )) as [number, number];
      return { count: Number(count), resetAt: Number(resetAt) };
    },
    async peek(keys) {
      if (keys.length === 0) return [];
      const now = clock.now().getTime();
      const pipeline = redis.pipeline();
      for (const key of keys) pipeline.hmget(windowKey(key), 'c', 'r');
      const replies = (await pipeline.exec()) ?? [];
      return replies.map(([error, value]) => {
        if (error) throw error;
        const [count, resetAt] = value as [string | null, string | null];
        return resetAt !== null && Number(resetAt) > now ? { count: Number(count), resetAt: Number(resetAt) } : closed(now);
      });
    },
    async clear(keys) {
      if (keys.length > 0) await redis.del(...keys.map(windowKey));
    },
    async clearGroup(group) {
      await redis.eval(CLEAR_GROUP_SCRIPT, 1, groupKey(group));
    },
  };
}

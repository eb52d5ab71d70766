import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock, type FixedClock } from './clock';
import { memoryThrottleStore, redisThrottleStore, secondsUntil, tooManyRequests, type ThrottleStore } from './rate-limiter';

/**
 * Connected before the first test rather than while the file loads: the app's connectRedis gives a connection
 * 2 s and one retry, which a worker starved by the parallel test files could miss, failing a test at random.
 */
const redis = new Redis('redis://127.0.0.1:6379', { lazyConnect: true });
beforeAll(() => redis.connect());
afterAll(() => redis.quit());

/**
 * The same rules for both stores. Every window is measured on the injected clock, never the machine's, so
 * nothing here depends on how fast the test runs; each Redis test has its own key prefix. Redis's own expiry
 * (which only collects old keys) runs on the machine's clock, so no window here is shorter than the test
 * timeout: a slow run can never see Redis drop a window the injected clock still holds open.
 */
const stores: [string, (clock: FixedClock) => ThrottleStore][] = [
  ['memory', (clock) => memoryThrottleStore(clock)],
  ['redis', (clock) => redisThrottleStore(redis, clock, `tf-test:${randomBytes(6).toString('hex')}:`)],
];

describe.each(stores)('throttle store (%s)', (_name, makeStore) => {
  it('counts hits in a window that opens at the first hit and ends after its length', async () => {
    const clock = fixedClock('2026-01-05T12:00:00Z');
    const store = makeStore(clock);
    const start = clock.now().getTime();
    expect(await store.hit('k', 60)).toEqual({ count: 1, resetAt: start + 60_000 });
    clock.advance(20_000);
    expect(await store.hit('k', 60)).toEqual({ count: 2, resetAt: start + 60_000 });
    expect(await store.peek(['k', 'other'])).toEqual([
      { count: 2, resetAt: start + 60_000 },
      { count: 0, resetAt: clock.now().getTime() },
    ]);

    clock.advance(39_999);
    expect((await store.hit('k', 60)).count).toBe(3);
    clock.advance(1);
    expect(await store.hit('k', 60)).toEqual({ count: 1, resetAt: clock.now().getTime() + 60_000 });
  });

  it('peeks without counting, and reports a window that has ended as empty', async () => {
    const clock = fixedClock();
    const store = makeStore(clock);
    await store.hit('k', 60);
    for (let i = 0; i < 3; i += 1) expect((await store.peek(['k']))[0]!.count).toBe(1);
    clock.advance(60_000);
    expect((await store.peek(['k']))[0]!.count).toBe(0);
  });

  it('keeps keys apart; clear forgets the keys named, clearGroup every key filed under the group', async () => {
    const clock = fixedClock();
    const store = makeStore(clock);
    await store.hit('a', 60, 'g');
    await store.hit('b', 60, 'g');
    await store.hit('c', 60);
    await store.hit('c', 60);
    await store.clear(['c']);
    expect((await store.peek(['a', 'b', 'c'])).map((w) => w.count)).toEqual([1, 1, 0]);
    await store.hit('c', 60);
    await store.clearGroup('g');
    expect((await store.peek(['a', 'b', 'c'])).map((w) => w.count)).toEqual([0, 0, 1]);
    await store.clearGroup('never-used');
  });

  it('starts counting again after old windows are swept', async () => {
    const clock = fixedClock();
    const store = makeStore(clock);
    await store.hit('old', 60, 'g');
    clock.advance(10 * 60_000);
    expect((await store.hit('new', 60)).count).toBe(1);
    expect((await store.hit('old', 60, 'g')).count).toBe(1);
    await store.clearGroup('g');
    expect((await store.peek(['old']))[0]!.count).toBe(0);
  });

  it('counts simultaneous hits exactly', async () => {
    const clock = fixedClock();
    const store = makeStore(clock);
    const windows = await Promise.all(Array.from({ length: 25 }, () => store.hit('busy', 60)));
    expect(windows.map((w) => w.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
  });
});

describe('the 429 every limit answers', () => {
  it('says how many whole seconds to wait, at least one', () => {
    expect(secondsUntil(40_000, 0)).toBe(40);
    expect(secondsUntil(40_001, 0)).toBe(41);
    expect(secondsUntil(500, 0)).toBe(1);
    expect(secondsUntil(0, 0)).toBe(1);
    const error = tooManyRequests(40);
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfter: 40 });
    expect(error.message).toContain('40 seconds');
  });
});

import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeBtcpay, type FakeBtcpay } from '../../../test/fake-http-server';
import { startDeposit } from '../../../test/memberships';
import { createTestApp, testPayments, testRateLimits, type TestContext } from '../../../test/test-app';
import { buildApp, type App } from '../../app';
import { defaultRateLimits } from '../../config';
import { memoryStorage } from '../../lib/storage';

const publicUrl = 'https://app.terrafund.test';
const limits = testRateLimits({ paymentReturnPerAddress: { limit: 3, windowSeconds: 60 } });

/**
 * The return page (docs/product.md §5.3 Buying a pack) is public and asks the provider about a pending invoice:
 * it is limited per client address, like the sign-in routes, so nobody can turn it into a flood of calls to
 * the provider's API.
 */
describe('GET /api/payments/return/:provider is limited per client', () => {
  let btcpay: FakeBtcpay;
  let ctx: TestContext;
  let transactionId: string;
  beforeAll(async () => {
    btcpay = await startFakeBtcpay();
    ctx = await createTestApp({ config: { payments: testPayments.btcpay(btcpay.url), rateLimits: limits } });
    ({ transactionId } = await startDeposit(ctx, 'gold'));
  });
  afterAll(async () => {
    await ctx?.close();
    await btcpay?.close();
  });

  const reads = () => btcpay.requests.filter((r) => r.method === 'GET').length;
  const returnFrom = (app: App, remoteAddress: string) =>
    app.inject({ method: 'GET', url: `/api/payments/return/btcpay?orderId=${transactionId}`, remoteAddress });

  it('allows 30 returns a minute per address by default', () => {
    expect(defaultRateLimits.paymentReturnPerAddress).toEqual({ limit: 30, windowSeconds: 60 });
  });

  it('answers 429 with Retry-After past the limit, without asking the provider, and other addresses still return', async () => {
    const before = reads();
    for (let i = 0; i < 3; i += 1) {
      const allowed = await returnFrom(ctx.app, '10.9.0.1');
      expect(allowed.statusCode).toBe(302);
      expect(allowed.headers.location).toBe(`${publicUrl}/wallet/payment/timeout`);
    }
    expect(reads() - before).toBe(3);

    const limited = await returnFrom(ctx.app, '10.9.0.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED', retryAfter: expect.any(Number) });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['retry-after']).toBe(String(limited.json().retryAfter));
    expect(reads() - before).toBe(3);

    expect((await returnFrom(ctx.app, '10.9.0.2')).statusCode).toBe(302);
  });

  it('counts in Redis with REDIS_URL, through every instance together', async () => {
    const config = { payments: testPayments.btcpay(btcpay.url), rateLimits: limits, redisUrl: 'redis://127.0.0.1:6379' };
    const a = await createTestApp({ config });
    const b = await buildApp({ config: a.app.deps.config, db: a.database.db, clock: a.clock, logger: pino({ level: 'silent' }), storage: memoryStorage() });
    try {
      ({ transactionId } = await startDeposit(a, 'gold'));
      expect((await returnFrom(a.app, '10.9.1.1')).statusCode).toBe(302);
      expect((await returnFrom(b, '10.9.1.1')).statusCode).toBe(302);
      expect((await returnFrom(a.app, '10.9.1.1')).statusCode).toBe(302);
      expect((await returnFrom(b, '10.9.1.1')).statusCode).toBe(429);
      expect((await returnFrom(a.app, '10.9.1.1')).statusCode).toBe(429);
    } finally {
      const redis = a.app.deps.redis!;
      const keys = await redis.keys(`${a.app.deps.config.redisKeyPrefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      await b.close();
      await a.close();
    }
  });
});

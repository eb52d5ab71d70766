import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { secondsUntil, tooManyRequests } from '../lib/rate-limiter';
import type { RedisClient } from '../lib/redis';

/**
 * Route limits with @fastify/rate-limit: counted in Redis (shared by every instance) when REDIS_URL is set,
 * in this process otherwise. Only routes that declare `config.rateLimit` are limited. A client is its address
 * as Fastify resolved it under TRUST_PROXY (IPv6 by /64, which one subscriber usually holds whole).
 */
export async function registerRateLimits(app: FastifyInstance, options: { redis?: RedisClient; keyPrefix: string }) {
  await app.register(rateLimit, {
    global: false,
    ...(options.redis ? { redis: options.redis, nameSpace: `${options.keyPrefix}rate-limit:` } : {}),
    // Room for many clients in memory, so that a flood of fresh addresses cannot push a counter out early.
    cache: 100_000,
    // Redis unreachable: refuse (500) rather than let every request through unlimited.
    skipOnError: false,
    errorResponseBuilder: (_request, context) => tooManyRequests(secondsUntil(context.ttl, 0)),
  });
}

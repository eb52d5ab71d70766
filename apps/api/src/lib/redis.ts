import { Redis } from 'ioredis';
import type { Logger } from 'pino';

export type RedisClient = Redis;

/**
 * The process's one Redis connection (REDIS_URL), shared by the route rate limits, the login throttles and
 * the health check. A command fails after one retry instead of queueing for ever, so a Redis outage answers
 * an error at once rather than hanging every sign-in.
 */
export function connectRedis(url: string, logger?: Pick<Logger, 'warn'>): RedisClient {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 2_000 });
  // ioredis reconnects by itself; the listener keeps an outage in the log instead of crashing the process.
  redis.on('error', (error: Error) => logger?.warn({ err: { message: error.message } }, 'redis connection error'));
  return redis;
}

export async function pingRedis(redis: RedisClient): Promise<boolean> {
  try {
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  }
}

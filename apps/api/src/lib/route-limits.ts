import type { RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { tooManyRequests, type RateLimitRule } from './rate-limiter';

// What a route declares of its limits; plugins/rate-limit.ts registers the counting (@fastify/rate-limit) they use.

/** A route's limit per client address. */
export const perAddress = (rule: RateLimitRule): RateLimitOptions => ({
  max: rule.limit,
  timeWindow: rule.windowSeconds * 1000,
});

/**
 * A second limit on a route, keyed by what the request names (an account), checked once the body is
 * validated; a route's `config.rateLimit` runs once per request, so a second one is its own hook.
 */
export function keyedLimit(
  app: FastifyInstance,
  name: string,
  rule: RateLimitRule,
  key: (request: FastifyRequest) => string,
) {
  const check = app.createRateLimit({ ...perAddress(rule), keyGenerator: (request) => `${name}:${key(request)}` });
  return async (request: FastifyRequest) => {
    const result = await check(request);
    if (!result.isAllowed && result.isExceeded) throw tooManyRequests(Math.max(1, result.ttlInSeconds));
  };
}

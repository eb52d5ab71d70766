import type { Logger } from 'pino';
import type { Config } from './config';
import type { Database } from './db/client';
import type { Clock } from './lib/clock';
import type { Secrets } from './lib/crypto';
import type { ThrottleStore } from './lib/rate-limiter';
import type { RedisClient } from './lib/redis';
import type { PaymentProvider } from './modules/payments';
import type { PayoutProvider } from './modules/withdrawals';

/** What services are given (conventions habit 3: plain functions, dependencies passed in). */
export type Deps = {
  db: Database;
  config: Config;
  clock: Clock;
  secrets: Secrets;
  /** Failed sign-ins and the code-resend cooldown (route limits are @fastify/rate-limit's, plugins/rate-limit.ts). */
  throttles: ThrottleStore;
  /** The Redis connection when REDIS_URL is set (lib/redis.ts). */
  redis?: RedisClient;
  logger: Logger;
  /** Tells the mail worker that a transaction just committed mail. */
  mailQueued: () => void;
  /** Tells the server that a transaction just committed a data export to build (modules/privacy). */
  exportQueued: () => void;
  /** The configured payment provider (PAYMENT_PROVIDER): sandbox, BTCPay or NOWPayments. */
  paymentProvider: PaymentProvider;
  /** The configured payout provider (PAYOUT_PROVIDER): sandbox, BTCPay or NOWPayments; undefined for manual. */
  payoutProvider?: PayoutProvider;
};

/** What the request's caller is known as, from the network's point of view. */
export type RequestMeta = { ip: string; userAgent?: string };

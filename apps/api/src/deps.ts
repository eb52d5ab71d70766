import type { Logger } from 'pino';
import type { Config } from './config';
import type { Database } from './db/client';
import type { Clock } from './lib/clock';
import type { Secrets } from './lib/crypto';
import type { RateLimiter } from './lib/rate-limiter';
import type { PaymentProvider } from './modules/payments/provider';

/** What services are given (conventions habit 3: plain functions, dependencies passed in). */
export type Deps = {
  db: Database;
  config: Config;
  clock: Clock;
  secrets: Secrets;
  limiter: RateLimiter;
  logger: Logger;
  /** Tells the mail worker that a transaction just committed mail. */
  mailQueued: () => void;
  /** The configured payment provider (PAYMENT_PROVIDER): sandbox, BTCPay or NOWPayments. */
  paymentProvider: PaymentProvider;
};

/** What the request's caller is known as, from the network's point of view. */
export type RequestMeta = { ip: string; userAgent?: string };

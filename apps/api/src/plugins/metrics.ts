import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { messages } from '@terrafund/contracts';
import type { Database } from '../db/client';
import { platformBalance } from '../modules/ledger';
import { countUndeliverableMail } from '../modules/mail';
import { settledInvoicesByProvider } from '../modules/payments';
import { lastPaidBusinessDay } from '../modules/payouts';
import { pendingWithdrawals } from '../modules/withdrawals';
import { AppError } from '../lib/app-error';
import type { ResponseObserver } from './access-log';

/** How long the figures read from the database are reused: N scrapers, or a fast one, cost one query set. */
const DOMAIN_CACHE_MS = 5_000;
const WEBHOOK_ROUTE_PREFIX = '/api/payments/webhooks/';
/** Request durations, in seconds. */
export const REQUEST_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type DomainFigures = {
  settledByProvider: { provider: string; count: number }[];
  dividendsPaidCents: number;
  lastPaidBusinessDay: number | null;
  withdrawalsPending: number;
  withdrawalsPendingCents: number;
};

/**
 * The money figures, read from the database so every instance reports the same totals whichever of them
 * did the work, each asked of the module whose rows they are: each is one indexed or O(1) read except the pending
 * withdrawals (a scan of transactions, as the admin statistics do), hence the cache.
 */
async function readDomainFigures(db: Database): Promise<DomainFigures> {
  const settledByProvider = await settledInvoicesByProvider(db);
  const dividendsPaid = await platformBalance(db, 'platform_dividends_paid');
  const lastDay = await lastPaidBusinessDay(db);
  const withdrawals = await pendingWithdrawals(db);
  return {
    settledByProvider,
    dividendsPaidCents: Math.abs(dividendsPaid),
    lastPaidBusinessDay: lastDay ? Date.parse(`${lastDay}T00:00:00Z`) / 1000 : null,
    withdrawalsPending: withdrawals.count,
    withdrawalsPendingCents: withdrawals.cents,
  };
}

/** The request histogram: by method, route pattern and status. */
export const requestDurationHistogram = (registry: Registry) =>
  new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: REQUEST_DURATION_BUCKETS,
    registers: [registry],
  });

const tokenMatches = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** Whether an `Authorization` header carries the metrics token (any header does when there is none). */
const authorised = (header: string | undefined, metricsToken: string | undefined) => {
  if (!metricsToken) return true;
  const token = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7).trim() : '';
  return tokenMatches(token, metricsToken);
};

/** What a scraper gets: this instance's metrics, and what the app's /metrics or the metrics listener answer with. */
export type Metrics = { registry: Registry; metricsToken?: string };

/**
 * GET /metrics in Prometheus' text format: request durations by route pattern, the process's own metrics, and
 * the money figures operators alert on. Outside /api (it is for the scraper, not the web app); with
 * METRICS_TOKEN set it needs `Authorization: Bearer <token>`. With `publicRoute: false` (METRICS_PORT set) the app
 * does not serve it at all: the metrics listener does (startMetricsListener, started by server.ts). Each app has its
 * own registry, so several apps in one process (the tests) do not share counters. Returns the metrics and what
 * observes each answer for the histogram, which the access log's hook runs (app.ts).
 */
export function registerMetrics(app: FastifyInstance, deps: { db: Database; metricsToken?: string; publicRoute?: boolean }) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const duration = requestDurationHistogram(registry);
  const webhookFailures = new Counter({
    name: 'terrafund_webhook_failures_total',
    help: 'Payment provider notifications this instance answered with an error (bad signature, provider unreachable…).',
    labelNames: ['provider', 'status'] as const,
    registers: [registry],
  });

  let cached: { at: number; figures: Promise<DomainFigures | undefined> } | undefined;
  const figures = (): Promise<DomainFigures | undefined> => {
    if (!cached || Date.now() - cached.at > DOMAIN_CACHE_MS) {
      const read = readDomainFigures(deps.db).catch((error: unknown) => {
        // A database that is down shows as missing figures (and a failing /api/health), not as a failed scrape.
        if (cached?.figures === read) cached = undefined;
        app.log.warn({ err: error }, 'metrics could not read the database');
        return undefined;
      });
      cached = { at: Date.now(), figures: read };
    }
    return cached.figures;
  };

  new Counter({
    name: 'terrafund_payments_settled_total',
    help: 'Provider invoices settled (each activated a pack), by provider.',
    labelNames: ['provider'] as const,
    registers: [registry],
    async collect() {
      const f = await figures();
      this.reset();
      for (const { provider, count } of f?.settledByProvider ?? []) this.inc({ provider }, count);
    },
  });
  new Counter({
    name: 'terrafund_payouts_paid_cents_total',
    help: 'Dividends paid to members since the start, in US cents (from the ledger).',
    registers: [registry],
    async collect() {
      const f = await figures();
      this.reset();
      if (f && f.dividendsPaidCents > 0) this.inc(f.dividendsPaidCents);
    },
  });
  new Gauge({
    name: 'terrafund_payouts_last_paid_business_day_seconds',
    help: 'The latest business day a dividend was paid for (Unix time of its midnight UTC); 0 before the first.',
    registers: [registry],
    async collect() {
      const f = await figures();
      this.set(f?.lastPaidBusinessDay ?? 0);
    },
  });
  new Gauge({
    name: 'terrafund_withdrawals_pending',
    help: 'Withdrawals waiting for an admin decision.',
    registers: [registry],
    async collect() {
      this.set((await figures())?.withdrawalsPending ?? 0);
    },
  });
  new Gauge({
    name: 'terrafund_withdrawals_pending_cents',
    help: 'The amount held by withdrawals waiting for an admin decision, in US cents.',
    registers: [registry],
    async collect() {
      this.set((await figures())?.withdrawalsPendingCents ?? 0);
    },
  });
  // Mail the outbox gave up on after a day of attempts (modules/mail): alert when it is above 0.
  new Gauge({
    name: 'terrafund_mail_undeliverable',
    help: 'Mails the outbox could not send for 24 hours, kept for an admin to send again (GET /api/admin/mail/undeliverable).',
    registers: [registry],
    async collect() {
      try {
        this.set(await countUndeliverableMail(deps.db));
      } catch {
        // A database that is down shows as a failing /api/health, not as a failed scrape.
      }
    },
  });

  // Run by the access log's onResponse hook (plugins/access-log.ts): one hook for everything that follows an answer.
  const observeResponse: ResponseObserver = (request, reply) => {
    // The route pattern, never the raw URL: ids and query strings would make a series per request.
    const route = request.routeOptions.url ?? 'unmatched';
    const status = reply.statusCode;
    duration.observe({ method: request.method, route, status: String(status) }, reply.elapsedTime / 1000);
    if (status >= 400 && route.startsWith(WEBHOOK_ROUTE_PREFIX)) {
      webhookFailures.inc({ provider: route.slice(WEBHOOK_ROUTE_PREFIX.length), status: String(status) });
    }
  };

  const metrics: Metrics = { registry, metricsToken: deps.metricsToken };
  if (deps.publicRoute !== false) {
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      if (!authorised(request.headers.authorization, deps.metricsToken)) {
        reply.header('www-authenticate', 'Bearer realm="metrics"');
        throw new AppError('UNAUTHENTICATED', messages.common.metricsTokenRequired);
      }
      reply.header('cache-control', 'no-store').type(registry.contentType);
      return registry.metrics();
    });
  }
  return { metrics, observeResponse };
}

/**
 * The metrics on a listener of their own (METRICS_HOST:METRICS_PORT, a private address the scraper reaches and the
 * public does not): `GET /metrics` and nothing else, with the same token check as the app's route when
 * METRICS_TOKEN is set. Resolves once it listens; close it with the server.
 */
export async function startMetricsListener(metrics: Metrics, address: { host: string; port: number }): Promise<http.Server> {
  const server = http.createServer((request, response) => {
    const path = request.url?.split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    if (!authorised(request.headers.authorization, metrics.metricsToken)) {
      response.writeHead(401, { 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Bearer realm="metrics"' });
      response.end(`${messages.common.metricsTokenRequired}\n`);
      return;
    }
    metrics.registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' }).end(text),
      () => response.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.port, address.host, () => resolve());
  });
  return server;
}

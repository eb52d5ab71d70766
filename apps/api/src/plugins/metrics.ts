import { timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { messages } from '@terrafund/contracts';
import { queryRows, type Database } from '../db/client';
import { AppError } from '../lib/app-error';
import { fastifySymbol } from '../lib/fastify-internals';
import { RequestDurationHistogram } from '../lib/request-histogram';
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
 * did the work: each is one indexed or O(1) read except the pending withdrawals (a scan of transactions, as
 * the admin statistics do), hence the cache.
 */
async function readDomainFigures(db: Database): Promise<DomainFigures> {
  const settled = await queryRows<{ provider: string; count: string }>(
    db,
    sql`select provider, count(*)::text as count from payment_invoices where state = 'settled' group by provider`,
  );
  const [paid] = await queryRows<{ cents: string | null }>(
    db,
    sql`select abs(balance_cents)::text as cents from ledger_accounts where kind = 'platform_dividends_paid'`,
  );
  const [lastDay] = await queryRows<{ day: string | null }>(db, sql`select max(business_day)::text as day from dividend_payouts`);
  const [withdrawals] = await queryRows<{ count: string; cents: string }>(
    db,
    sql`select count(*)::text as count, coalesce(sum(amount_cents), 0)::text as cents
        from transactions where type = 'withdrawal' and status = 'pending'`,
  );
  return {
    settledByProvider: settled.map((r) => ({ provider: r.provider, count: Number(r.count) })),
    dividendsPaidCents: Number(paid?.cents ?? 0),
    lastPaidBusinessDay: lastDay?.day ? Date.parse(`${lastDay.day}T00:00:00Z`) / 1000 : null,
    withdrawalsPending: Number(withdrawals?.count ?? 0),
    withdrawalsPendingCents: Math.abs(Number(withdrawals?.cents ?? 0)),
  };
}

/** Where Fastify keeps a request's route (fastify/lib/symbols.js). */
const ROUTE_CONTEXT = 'fastify.context';
let routeContext: symbol | null | undefined;

/**
 * A request's route pattern, `request.routeOptions.url`, read where that getter reads it: the getter builds a
 * twelve-field object on every call, for the one field the histogram needs on every request. Should Fastify keep
 * its route elsewhere, this falls back to the getter (metrics.test.ts checks the labels either way).
 */
export function routePattern(request: FastifyRequest): string | undefined {
  routeContext ??= fastifySymbol(request, ROUTE_CONTEXT);
  const context = routeContext && (request as unknown as Record<symbol, { config?: { url?: string } } | undefined>)[routeContext];
  return context && typeof context === 'object' && 'config' in context ? context.config?.url : request.routeOptions.url;
}

const tokenMatches = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * GET /metrics in Prometheus' text format: request durations by route pattern, the process's own metrics, and
 * the money figures operators alert on. Outside /api (it is for the scraper, not the web app); with
 * METRICS_TOKEN set it needs `Authorization: Bearer <token>`. Each app has its own registry, so several apps in
 * one process (the tests) do not share counters. Returns what observes each answer for the histogram, which the
 * access log's hook runs (app.ts).
 */
export function registerMetrics(app: FastifyInstance, deps: { db: Database; metricsToken?: string }) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const duration = new RequestDurationHistogram(
    'http_request_duration_seconds',
    'Time to answer an HTTP request, by method, route pattern and status.',
    REQUEST_DURATION_BUCKETS,
    [registry],
  );
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

  // Run by the access log's onResponse hook (plugins/access-log.ts): one hook for everything that follows an answer.
  const observeResponse: ResponseObserver = (request, reply) => {
    // The route pattern, never the raw URL: ids and query strings would make a series per request.
    const route = routePattern(request) ?? 'unmatched';
    const status = reply.statusCode;
    duration.observe(request.method, route, status, reply.elapsedTime / 1000);
    if (status >= 400 && route.startsWith(WEBHOOK_ROUTE_PREFIX)) {
      webhookFailures.inc({ provider: route.slice(WEBHOOK_ROUTE_PREFIX.length), status: String(status) });
    }
  };

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (deps.metricsToken) {
      const header = request.headers.authorization;
      const token = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7).trim() : '';
      if (!tokenMatches(token, deps.metricsToken)) {
        reply.header('www-authenticate', 'Bearer realm="metrics"');
        throw new AppError('UNAUTHENTICATED', messages.common.metricsTokenRequired);
      }
    }
    reply.header('cache-control', 'no-store').type(registry.contentType);
    return registry.metrics();
  });
  return { observeResponse };
}

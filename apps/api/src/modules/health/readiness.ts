import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { messages } from '@terrafund/contracts';
import type { Deps } from '../../deps';
import { AppError } from '../../lib/app-error';
import type { FileStorage } from '../../lib/storage';

/**
 * A dependency the instance cannot serve without; `check` resolves when it answers. `local` ones (the embedded
 * database, in this process) are waited for: they cannot hang on a network, and a busy one is not unavailable.
 */
export type DependencyCheck = { name: string; check: () => Promise<unknown>; local?: boolean };

/**
 * Where the instance is in its start: it listens at once, and only migrates, seeds and starts its jobs once
 * the database answers (server.ts). Until then every /api route but the health check answers 503.
 */
export type StartupState = {
  ready: boolean;
  phase: 'waiting for the database' | 'migrating' | 'ready';
  /** Set on SIGTERM: answers still being sent close their connection, so keep-alive clients let go. */
  stopping?: boolean;
};

export const readyState = (): StartupState => ({ ready: true, phase: 'ready' });

/** Long enough for a busy database or bucket, short enough for a proxy's health check timeout (5 s in deploy/haproxy.cfg). */
const CHECK_TIMEOUT_MS = 3000;

/** What GET /api/health asks: the database, and Redis and the bucket when they are configured. */
export function readinessChecks(deps: Pick<Deps, 'db' | 'config' | 'redis'>, storage: FileStorage): DependencyCheck[] {
  return [
    { name: 'database', check: () => deps.db.execute(sql`select 1`), local: !deps.config.databaseUrl },
    ...(deps.redis ? [{ name: 'redis', check: () => deps.redis!.ping() }] : []),
    ...(storage.check ? [{ name: 's3', check: () => storage.check!() }] : []),
  ];
}

type DependencyStatus = 'ok' | 'error' | 'timeout' | 'starting';
export type Readiness = { ok: boolean; failing: string[]; dependencies: Record<string, DependencyStatus> };

function withTimeout(promise: Promise<unknown>, ms: number): Promise<DependencyStatus> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<DependencyStatus>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  return Promise.race([promise.then((): DependencyStatus => 'ok'), timeout]).finally(() => clearTimeout(timer));
}

/** Asks every dependency at once; a slow one counts as failing after CHECK_TIMEOUT_MS. */
export async function checkReadiness(
  checks: DependencyCheck[],
  startup: StartupState,
  onFailure: (name: string, error: unknown) => void,
  timeoutMs = CHECK_TIMEOUT_MS,
): Promise<Readiness> {
  const results = await Promise.all(
    checks.map(async ({ name, check, local }): Promise<[string, DependencyStatus]> => {
      try {
        const answered = Promise.resolve().then(check);
        const status = local ? await answered.then((): DependencyStatus => 'ok') : await withTimeout(answered, timeoutMs);
        if (status === 'timeout') onFailure(name, new Error(`no answer within ${timeoutMs} ms`));
        return [name, status];
      } catch (error) {
        onFailure(name, error);
        return [name, 'error'];
      }
    }),
  );
  const dependencies = Object.fromEntries(results);
  // Answering is not enough while the schema is not migrated yet: the database is not usable.
  if (!startup.ready && dependencies.database === 'ok') dependencies.database = 'starting';
  const failing = results.filter(([name]) => dependencies[name] !== 'ok').map(([name]) => name);
  return { ok: failing.length === 0, failing, dependencies };
}

/**
 * While the instance is still starting (its database unreachable, or migrating), every /api route but the health
 * check answers 503 at once instead of failing deep inside a query; the web app's files are still served.
 * While it stops, each answer closes its connection. Both hooks are synchronous, in callback style: an async
 * hook costs every request a promise and a turn of the microtask queue (docs/performance.md).
 */
export function registerStartupGate(app: FastifyInstance, startup: StartupState) {
  app.addHook('onRequest', (request, _reply, done) => {
    if (startup.ready || request.routeOptions.url === '/api/health' || !request.url.startsWith('/api')) return done();
    done(new AppError('SERVICE_UNAVAILABLE', messages.common.serviceUnavailable, { retryAfter: 5 }));
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (startup.stopping) reply.header('connection', 'close');
    done(null, payload);
  });
}

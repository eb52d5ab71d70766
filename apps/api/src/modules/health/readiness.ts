import { sql } from 'drizzle-orm';
import type { Deps } from '../../deps';
import type { Clock } from '../../lib/clock';
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

type DependencyResults = Array<[string, DependencyStatus]>;

/** Asks every dependency at once; a slow one counts as failing after CHECK_TIMEOUT_MS. */
async function askDependencies(
  checks: DependencyCheck[],
  onFailure: (name: string, error: unknown) => void,
  timeoutMs: number,
): Promise<DependencyResults> {
  return Promise.all(
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
}

/** The dependencies' answers as the instance's readiness, given where its start is now. */
function readinessOf(results: DependencyResults, startup: StartupState): Readiness {
  const dependencies = Object.fromEntries(results);
  // Answering is not enough while the schema is not migrated yet: the database is not usable.
  if (!startup.ready && dependencies.database === 'ok') dependencies.database = 'starting';
  const failing = results.filter(([name]) => dependencies[name] !== 'ok').map(([name]) => name);
  return { ok: failing.length === 0, failing, dependencies };
}

/** Asks every dependency now and answers the readiness. */
export async function checkReadiness(
  checks: DependencyCheck[],
  startup: StartupState,
  onFailure: (name: string, error: unknown) => void,
  timeoutMs = CHECK_TIMEOUT_MS,
): Promise<Readiness> {
  return readinessOf(await askDependencies(checks, onFailure, timeoutMs), startup);
}

/**
 * At most one round of checks a second per instance, by default: a proxy, a monitor or a flood of requests
 * to GET /api/health costs the database, Redis and the bucket one query a second, whatever the rate.
 */
export const READINESS_MAX_AGE_MS = 1000;

/**
 * The instance's one readiness probe. A request shares the round of checks in flight, or the last answer while
 * that round started less than `maxAgeMs` ago; otherwise it starts a new round (and its logger reports the
 * failures). So a dependency that fails, or comes back, shows within `maxAgeMs` plus the round's own time.
 * The start's phase is applied to each answer as it is read, not cached: it changes at once. A clock that went
 * back counts as a stale answer.
 */
export function createReadinessProbe(
  checks: DependencyCheck[],
  options: { clock: Clock; maxAgeMs?: number; timeoutMs?: number },
) {
  const maxAgeMs = options.maxAgeMs ?? READINESS_MAX_AGE_MS;
  const timeoutMs = options.timeoutMs ?? CHECK_TIMEOUT_MS;
  let last: { startedAt: number; results: Promise<DependencyResults>; done: boolean } | undefined;
  return async (startup: StartupState, onFailure: (name: string, error: unknown) => void): Promise<Readiness> => {
    const now = options.clock.now().getTime();
    const age = last ? now - last.startedAt : Infinity;
    if (!last || (last.done && (age >= maxAgeMs || age < 0))) {
      const round = { startedAt: now, results: askDependencies(checks, onFailure, timeoutMs), done: false };
      void round.results.then(() => {
        round.done = true;
      });
      last = round;
    }
    return readinessOf(await last.results, startup);
  };
}

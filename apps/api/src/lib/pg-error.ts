import type { AppError } from './app-error';

/** The SQLSTATEs the API tells apart (PostgreSQL appendix A). */
export const PG = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  checkViolation: '23514',
} as const;

type PgErrorCode = (typeof PG)[keyof typeof PG];

/** What PostgreSQL says about a refused statement: its SQLSTATE and, for a constraint, the constraint's name. */
type PgErrorInfo = { code: string; constraint?: string };

/**
 * The PostgreSQL error in `error` or in what it wraps: node-postgres and PGlite both set `code` (the SQLSTATE)
 * and `constraint` on their error, and Drizzle wraps it as the `cause` of its own "Failed query" error.
 */
export function pgErrorOf(error: unknown): PgErrorInfo | undefined {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
      return { code, ...(typeof constraint === 'string' ? { constraint } : {}) };
    }
  }
  return undefined;
}

/** Whether `error` is PostgreSQL refusing a statement with `code`, for one of `constraints` when given. */
export function isPgError(error: unknown, code: PgErrorCode, constraints?: readonly string[]): boolean {
  const pg = pgErrorOf(error);
  if (pg?.code !== code) return false;
  return constraints === undefined || (pg.constraint !== undefined && constraints.includes(pg.constraint));
}

/** A database refusal the caller expects, and the domain error it means. */
type PgErrorRule = { code: PgErrorCode; constraints?: readonly string[]; error: () => AppError };

/**
 * The domain error for the first rule `error` matches, or `error` itself: `catch (e) { throw toDomainError(e, rules) }`.
 */
export function toDomainError(error: unknown, rules: readonly PgErrorRule[]): unknown {
  const rule = rules.find((r) => isPgError(error, r.code, r.constraints));
  return rule ? rule.error() : error;
}

/**
 * SQLSTATEs that say the database cannot serve right now, not that the statement was wrong: class 08 (connection
 * exception), 57P01 admin shutdown (`pg_ctl stop/restart -m fast` ends each session), 57P02 crash shutdown, 57P03
 * cannot connect now (starting up, shutting down, in recovery), 53300 too many connections.
 */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123]|53300)$/;
/** What the socket under node-postgres says when the server is gone or not there (Node's system error codes). */
const UNAVAILABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);
/**
 * node-postgres and pg-pool report a lost or refused connection in these words, without any code: a connection
 * that ended under a query, a pool that waited `connectionTimeoutMillis` for a connection, a client that is
 * already broken.
 */
const UNAVAILABLE_MESSAGE =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error and is not queryable|Client was closed and is not queryable|Connection terminated due to connection timeout)/;

/**
 * Whether `error` (or what it wraps) is the database being unreachable or restarting, rather than a statement it
 * refused: the request failed for an outage, so the answer is 503 with Retry-After, and trying again later works.
 * A transaction whose COMMIT was cut off this way is rolled back by PostgreSQL unless the commit record was
 * already written; either way the client was told it failed only when the server could not say otherwise.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 8; e = (e as { cause?: unknown }).cause, depth += 1) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_ERRNO.has(code))) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)) return true;
    // Node's AggregateError (a dual-stack connect that failed on every address) carries the real errors inside.
    const errors = (e as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner))) return true;
  }
  return false;
}

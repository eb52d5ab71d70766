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

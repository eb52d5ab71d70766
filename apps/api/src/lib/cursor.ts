import { sql, type AnyColumn, type Placeholder, type SQL } from 'drizzle-orm';
import { AppError } from './app-error';

/**
 * Keyset paging (docs/decisions.md, "Admin figures and the transactions list"): every list of ours is ordered
 * by (created_at desc, id desc), the order of its index, so a page is "the next rows after a key": an index
 * seek, as cheap at row 1,000,000 as at row 1. A key is written with the timestamp's full microseconds, read as
 * text from PostgreSQL: a JavaScript Date keeps milliseconds only, and a key rounded to the millisecond would
 * skip or repeat rows created within the same millisecond.
 */

/** The position just after a row: its created_at (ISO 8601, UTC, microseconds) and its id. */
export type PageKey = { createdAt: string; id: string };

const KEY_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.(\d{6})Z$/;
const KEY_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The cursor clients get in X-Next-Cursor: opaque to them, `<created_at>|<id>` in base64url to us. */
export const encodeCursor = (key: PageKey) => Buffer.from(`${key.createdAt}|${key.id}`, 'utf8').toString('base64url');

/**
 * The key a cursor names, or null when it is not one of ours. Every part is checked before it reaches SQL, so
 * a forged cursor is a 400, never a database error (a 500): the base64url must be canonical, the id a
 * lower-case uuid, and the timestamp a real instant (no 13th month, no 25th hour, no 31st of February).
 */
export function decodeCursor(cursor: string): PageKey | null {
  if (!BASE64URL.test(cursor)) return null;
  const bytes = Buffer.from(cursor, 'base64url');
  if (bytes.toString('base64url') !== cursor) return null;
  const [createdAt, id, ...rest] = bytes.toString('utf8').split('|');
  if (createdAt === undefined || id === undefined || rest.length > 0 || !KEY_ID.test(id)) return null;
  const parts = KEY_TIMESTAMP.exec(createdAt);
  if (!parts) return null;
  const [year, month, day, hour, minute, second] = parts.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const instant = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  const roundTrips =
    year >= 1 &&
    instant.getUTCFullYear() === year &&
    instant.getUTCMonth() === month - 1 &&
    instant.getUTCDate() === day &&
    instant.getUTCHours() === hour &&
    instant.getUTCMinutes() === minute &&
    instant.getUTCSeconds() === second;
  return roundTrips ? { createdAt, id } : null;
}

/** The key of a `cursor` query parameter (undefined when none is given); a forged one is a 400 saying `message`. */
export function readCursor(cursor: string | undefined, message: string): PageKey | undefined {
  if (cursor === undefined) return undefined;
  const key = decodeCursor(cursor);
  if (!key) throw new AppError('VALIDATION_ERROR', message, { fields: { cursor: message } });
  return key;
}

export const sameKey = (a: PageKey | undefined, b: PageKey | undefined) =>
  a !== undefined && b !== undefined && a.createdAt === b.createdAt && a.id === b.id;

/** created_at with its microseconds, as the text a cursor carries. */
export const keyTimestamp = (createdAt: AnyColumn | SQL) =>
  sql<string>`to_char(${createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** Rows strictly after `key` in the order (created_at desc, id desc): a row comparison the index seeks to. */
export const afterKey = (
  createdAt: AnyColumn,
  id: AnyColumn,
  key: PageKey | { createdAt: Placeholder; id: Placeholder } | undefined,
): SQL | undefined =>
  key ? sql`(${createdAt}, ${id}) < (${key.createdAt}::timestamptz, ${key.id}::uuid)` : undefined;

/**
 * Keyset paging of the admin transactions list (docs/decisions.md, "Admin figures and the transactions list").
 *
 * The list is ordered by (created_at desc, id desc), the order of the index transactions_created_idx, so a page
 * is "the next 20 rows after a key": an index seek, as cheap at row 1,000,000 as at row 1. A key is written
 * with the timestamp's full microseconds, read as text from PostgreSQL: a JavaScript Date keeps milliseconds
 * only, and a key rounded to the millisecond would skip or repeat rows created within the same millisecond.
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

export const sameKey = (a: PageKey | undefined, b: PageKey | undefined) =>
  a !== undefined && b !== undefined && a.createdAt === b.createdAt && a.id === b.id;

type Bookmark = { search: string; page: number; key: PageKey; savedAt: number };

/**
 * Where each page of a search ended, so that `?page=N` (what the spec's client sends) is a keyset seek from
 * the end of page N-1 instead of an OFFSET scan of 20·(N-1) rows. In process memory, least recently used
 * out first, bounded in entries and in age.
 *
 * A bookmark describes the list as it was when its page was served. Two rules keep that view honest:
 * - when page n is served again and now ends on a different row (or is the last page), the list before it
 *   changed (a new transaction on top, a status search that lost a row), so every bookmark after n goes;
 * - a bookmark older than `maxAgeMs` is forgotten, which bounds how stale a cold jump can be.
 * Another server has its own bookmarks; it answers the same pages, walking to them the first time.
 */
export class PageBookmarks {
  private readonly entries = new Map<string, Bookmark>();

  constructor(
    private readonly capacity = 2_000,
    private readonly maxAgeMs = 10 * 60_000,
  ) {}

  // JSON keeps searches with any characters apart: no separator can be forged inside a search.
  private static nameOf = (search: string, page: number) => JSON.stringify([search, page]);

  get size() {
    return this.entries.size;
  }

  /** The key just after the last row of `page`, if it is known and fresh. */
  get(search: string, page: number, now: number): PageKey | undefined {
    const name = PageBookmarks.nameOf(search, page);
    const found = this.entries.get(name);
    if (!found) return undefined;
    this.entries.delete(name);
    if (now - found.savedAt > this.maxAgeMs) return undefined;
    this.entries.set(name, found);
    return found.key;
  }

  /** The closest known page before `page` (its number and key), if any. */
  nearestBefore(search: string, page: number, now: number): { page: number; key: PageKey } | undefined {
    let best: number | undefined;
    for (const bookmark of this.entries.values()) {
      if (bookmark.search !== search || bookmark.page >= page || now - bookmark.savedAt > this.maxAgeMs) continue;
      if (best === undefined || bookmark.page > best) best = bookmark.page;
    }
    if (best === undefined) return undefined;
    const key = this.get(search, best, now);
    return key ? { page: best, key } : undefined;
  }

  /** Records where `page` ended; if it used to end elsewhere, the bookmarks after it are stale and go. */
  set(search: string, page: number, key: PageKey, now: number) {
    const name = PageBookmarks.nameOf(search, page);
    const previous = this.entries.get(name);
    if (previous && !sameKey(previous.key, key)) this.forgetFrom(search, page + 1);
    this.entries.delete(name);
    this.entries.set(name, { search, page, key, savedAt: now });
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  /** Forgets where `page` and every later page of `search` ended (the list now ends before them). */
  forgetFrom(search: string, page: number) {
    for (const [name, bookmark] of this.entries) {
      if (bookmark.search === search && bookmark.page >= page) this.entries.delete(name);
    }
  }
}

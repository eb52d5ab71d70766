import { sameKey, type PageKey } from '../../lib/cursor';

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

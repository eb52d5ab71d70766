import { and, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import {
  ADMIN_TRANSACTIONS_PAGE_SIZE,
  messages,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
  UUID_PATTERN,
  type AdminTransaction,
  type adminTransactionsQuery,
} from '@terrafund/contracts';
import type { z } from 'zod';
import { transactions, users } from '../../db/schema';
import type { Deps } from '../../deps';
import { afterKey, encodeCursor, keyTimestamp, readCursor, sameKey, type PageKey } from '../../lib/cursor';
import { toTransactionDto } from '../transactions';
import type { PageBookmarks } from './page-bookmarks';

/**
 * The admin's transactions: the paged list of all of them, with search, and the newest few for the dashboard
 * (docs/decisions.md, "Admin figures and the transactions list"). Transactions are dated by created_at.
 */

const PAGE_SIZE = ADMIN_TRANSACTIONS_PAGE_SIZE;
/** Rows a cold jump skips per statement; a multiple of the page size, so each step ends on a page boundary. */
const WALK_STEP_ROWS = 250 * PAGE_SIZE;

/** Escapes LIKE wildcards so a search for "50%" means those characters, not a pattern. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const isType = (word: string): word is (typeof TRANSACTION_TYPES)[number] => (TRANSACTION_TYPES as readonly string[]).includes(word);
const isStatus = (word: string): word is (typeof TRANSACTION_STATUSES)[number] =>
  (TRANSACTION_STATUSES as readonly string[]).includes(word);

/**
 * The search as a condition on transactions joined with users. Each word must match (so "ada lovelace", "ada
 * pending", "lovelace deposit" all narrow), case-insensitively:
 * - a word shaped like a uuid is a transaction id, matched exactly (an index lookup, not a scan);
 * - any other word is part of the member's e-mail, first or last name, or exactly a type or a status.
 */
function searchCondition(search: string): SQL | undefined {
  const words = search.split(/\s+/).filter(Boolean);
  if (words.length === 0) return undefined;
  return and(
    ...words.map((word) => {
      if (UUID_PATTERN.test(word)) return eq(transactions.id, word.toLowerCase());
      const pattern = likePattern(word);
      const lower = word.toLowerCase();
      return or(
        ilike(users.email, pattern),
        ilike(users.firstName, pattern),
        ilike(users.lastName, pattern),
        isType(lower) ? eq(transactions.type, lower) : undefined,
        isStatus(lower) ? eq(transactions.status, lower) : undefined,
      );
    }),
  );
}

/**
 * The list order, spelled exactly as transactions_created_idx is built: `desc nulls last`. A bare `desc` means
 * `nulls first`, which the index does not provide (NOT NULL columns notwithstanding), and PostgreSQL would
 * sort the whole table for every page instead of reading 21 index entries.
 */
const listOrder = [sql`${transactions.createdAt} desc nulls last`, sql`${transactions.id} desc nulls last`] as const;

const after = (key: PageKey | undefined) => afterKey(transactions.createdAt, transactions.id, key);

/** The statement of a page: up to `limit` transactions with their member, after `key`, newest first. */
export function pageQuery(deps: Pick<Deps, 'db'>, where: SQL | undefined, key: PageKey | undefined, limit: number) {
  return deps.db
    .select({
      transaction: transactions,
      user: { _id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email },
      createdAt: keyTimestamp(transactions.createdAt),
    })
    .from(transactions)
    .innerJoin(users, eq(users.id, transactions.userId))
    .where(and(where, after(key)))
    .orderBy(...listOrder)
    .limit(limit);
}

/** Up to `limit` transactions with their member, after `key`, newest first, each with its own key. */
async function fetchRows(deps: Pick<Deps, 'db'>, where: SQL | undefined, key: PageKey | undefined, limit: number) {
  const rows = await pageQuery(deps, where, key, limit);
  return rows.map((row) => ({
    key: { createdAt: row.createdAt, id: row.transaction.id } satisfies PageKey,
    item: { ...toTransactionDto(row.transaction), user: row.user } satisfies AdminTransaction,
  }));
}

/**
 * The key `rows` rows after `key` (the start of the list when undefined), reading keys only; null when the
 * list ends first.
 */
async function skipRows(deps: Pick<Deps, 'db'>, where: SQL | undefined, key: PageKey | undefined, rows: number) {
  const base = deps.db.select({ createdAt: transactions.createdAt, id: transactions.id }).from(transactions);
  // Without a search the step never touches users: an index-only walk of transactions_created_idx.
  const chunk = (where ? base.innerJoin(users, eq(users.id, transactions.userId)) : base)
    .where(and(where, after(key)))
    .orderBy(...listOrder)
    .limit(rows)
    .as('chunk');
  const [last] = await deps.db
    .select({
      found: sql<string>`count(*)::text`,
      createdAt: sql<string | null>`(array_agg(${keyTimestamp(sql`${chunk.createdAt}`)} order by ${chunk.createdAt}, ${chunk.id}))[1]`,
      id: sql<string | null>`(array_agg(${chunk.id}::text order by ${chunk.createdAt}, ${chunk.id}))[1]`,
    })
    .from(chunk);
  if (!last || Number(last.found) < rows || !last.createdAt || !last.id) return null;
  return { createdAt: last.createdAt, id: last.id } satisfies PageKey;
}

/**
 * Where page `page` starts (the key after the last row of page - 1), for a page number with no bookmark just
 * before it: from the nearest bookmark below (or the top), forward in keyset steps of WALK_STEP_ROWS rows,
 * bookmarking each step's end. Correct whatever the gap, but linear in it. Null when the list ends first.
 */
async function walkTo(deps: Pick<Deps, 'db'>, bookmarks: PageBookmarks, search: string, where: SQL | undefined, page: number, now: number) {
  const start = bookmarks.nearestBefore(search, page, now);
  let reached = start?.page ?? 0;
  let key = start?.key;
  while (reached < page - 1) {
    const rows = Math.min(WALK_STEP_ROWS, (page - 1 - reached) * PAGE_SIZE);
    const next = await skipRows(deps, where, key, rows);
    if (!next) return null;
    reached += rows / PAGE_SIZE;
    key = next;
    bookmarks.set(search, reached, key, now);
  }
  return key;
}

type TransactionsPage = { items: AdminTransaction[]; next?: { page: number; cursor: string } };

/**
 * GET /api/admin/transactions: 20 a page, newest first, [] past the end. A page starts after the `cursor`
 * when one is given, else after the bookmark of the page before (walking to it when there is none). The
 * page's own end is bookmarked only when its start was the recorded end of the page before, so a cursor
 * sent with an unrelated page number cannot mislabel a bookmark.
 */
export async function listTransactions(
  deps: Pick<Deps, 'db' | 'clock'>,
  bookmarks: PageBookmarks,
  query: z.output<typeof adminTransactionsQuery>,
): Promise<TransactionsPage> {
  const { page, search } = query;
  const now = deps.clock.now().getTime();
  const where = searchCondition(search);

  const cursor = readCursor(query.cursor, messages.admin.cursorInvalid);
  let start: PageKey | undefined;
  let chained: boolean;
  if (cursor) {
    start = cursor;
    chained = page > 1 && sameKey(bookmarks.get(search, page - 1, now), cursor);
  } else if (page > 1) {
    const found = bookmarks.get(search, page - 1, now) ?? (await walkTo(deps, bookmarks, search, where, page, now));
    if (!found) return { items: [] };
    start = found;
    chained = true;
  } else {
    chained = true;
  }

  // One row more than a page tells whether a next page exists without another query.
  const rows = await fetchRows(deps, where, start, PAGE_SIZE + 1);
  const pageRows = rows.slice(0, PAGE_SIZE);
  const last = pageRows.at(-1);
  if (chained) {
    if (last && pageRows.length === PAGE_SIZE) bookmarks.set(search, page, last.key, now);
    else bookmarks.forgetFrom(search, page);
  }
  return {
    items: pageRows.map((row) => row.item),
    ...(rows.length > PAGE_SIZE && last ? { next: { page: page + 1, cursor: encodeCursor(last.key) } } : {}),
  };
}

/** GET /api/admin/dashboard/transactions: the 10 newest transactions with their members. */
export async function recentTransactions(deps: Pick<Deps, 'db'>, limit = 10): Promise<AdminTransaction[]> {
  return (await fetchRows(deps, undefined, undefined, limit)).map((row) => row.item);
}

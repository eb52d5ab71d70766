import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { messages, type AdminTransaction } from '@terrafund/contracts';
import { getPage } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** Where a page starts: its number (docs/product.md §7.4 Transactions and withdrawal decisions) and, once the server has named it, its keyset cursor. */
export type AdminTransactionsPageParam = { page: number; cursor?: string };
export type AdminTransactionsPage = { items: AdminTransaction[]; nextCursor?: string };

/** One page (20, newest first) of every member's transactions matching the search; `[]` past the end. */
export async function getAdminTransactions(
  { search, page, cursor }: { search: string } & AdminTransactionsPageParam,
  signal?: AbortSignal,
): Promise<AdminTransactionsPage> {
  const { items, nextCursor } = await getPage<AdminTransaction>('/admin/transactions', {
    params: { page, search: search || undefined, cursor },
    signal,
  });
  return { items, nextCursor };
}

const firstPage: AdminTransactionsPageParam = { page: 1 };

export const adminTransactionsQueryOptions = (search: string) =>
  infiniteQueryOptions({
    queryKey: queryKeys.admin.transactionList(search),
    queryFn: ({ pageParam, signal }) => getAdminTransactions({ search, ...pageParam }, signal),
    initialPageParam: firstPage,
    // Spec section 9: pages by number from 1 until one comes back empty; a short page or a missing cursor
    // does not end the list, because the spec's rule is the empty page. The cursor, when the server sent
    // one, makes the next page a keyset seek; the number still goes along for a server that pages by number.
    getNextPageParam: (lastPage, _pages, lastPageParam): AdminTransactionsPageParam | undefined =>
      lastPage.items.length === 0 ? undefined : { page: lastPageParam.page + 1, cursor: lastPage.nextCursor },
  });

export function useAdminTransactions(search: string) {
  return useInfiniteQuery({
    ...adminTransactionsQueryOptions(search),
    // A new search keeps the old rows on screen (dimmed) until its first page arrives, instead of flashing empty.
    placeholderData: keepPreviousData,
    meta: { errorToast: messages.admin.transactionsFailed },
  });
}

import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { Transaction } from '@terrafund/contracts';
import { getPage } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export type TransactionsPage = { items: Transaction[]; nextCursor?: string };

/**
 * One page of the caller's own transactions, newest first (50, the server's default); the server names the
 * next page's cursor in X-Next-Cursor and leaves it out on the last page.
 */
export async function getTransactions(cursor: string | undefined, signal?: AbortSignal): Promise<TransactionsPage> {
  const { items, nextCursor } = await getPage<Transaction>('/transactions', { params: { cursor }, signal });
  return { items, nextCursor };
}

export const transactionsQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: queryKeys.transactions(),
    queryFn: ({ pageParam, signal }) => getTransactions(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    // The list ends where the server stops naming a next page.
    getNextPageParam: (lastPage) => lastPage.nextCursor,
  });

export function useTransactions() {
  return useInfiniteQuery({
    ...transactionsQueryOptions(),
    // "Failed to fetch transactions." (docs/product.md §10 Messages) is shown in the history table itself, where the
    // member is looking and where it stays, with a way to try again; a toast as well would say it twice.
    meta: { skipGlobalToast: true },
  });
}

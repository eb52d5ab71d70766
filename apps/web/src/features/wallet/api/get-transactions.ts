import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Transaction } from '@terrafund/contracts';
import { api } from '@/lib/api-client';

/** The member's own transactions: what a deposit, a withdrawal or an investment makes stale. */
export const transactionsKey = ['transactions'] as const;

/** The caller's own transactions, newest first (decisions section 1). */
export const getTransactions = (signal?: AbortSignal) => api.get<Transaction[]>('/transactions', { signal });

export const transactionsQueryOptions = () =>
  queryOptions({ queryKey: transactionsKey, queryFn: ({ signal }) => getTransactions(signal) });

export function useTransactions() {
  return useQuery({
    ...transactionsQueryOptions(),
    // "Failed to fetch transactions." (spec section 8) is shown in the history table itself, where the
    // member is looking and where it stays, with a way to try again; a toast as well would say it twice.
    meta: { skipGlobalToast: true },
  });
}

import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TransactionDetail } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { transactionsKey } from './get-transactions';

/** One of the member's transactions, with a withdrawal's timeline; under the list's key, so what stales the list stales it. */
export const transactionQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...transactionsKey, 'detail', id],
    queryFn: ({ signal }) => api.get<TransactionDetail>(`/transactions/${encodeURIComponent(id)}`, { signal }),
  });

export function useTransaction(id: string | null) {
  return useQuery({ ...transactionQueryOptions(id ?? ''), enabled: id !== null, meta: { skipGlobalToast: true } });
}

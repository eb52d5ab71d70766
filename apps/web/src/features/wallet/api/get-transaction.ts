import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TransactionDetail } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** One of the member's transactions, with a withdrawal's timeline; under the list's key, so what stales the list stales it. */
export const transactionQueryOptions = (id: string) =>
  queryOptions({
    queryKey: queryKeys.transaction(id),
    queryFn: ({ signal }) => api.get<TransactionDetail>(`/transactions/${encodeURIComponent(id)}`, { signal }),
  });

export function useTransaction(id: string | null) {
  return useQuery({ ...transactionQueryOptions(id ?? ''), enabled: id !== null, meta: { skipGlobalToast: true } });
}

import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminTransactionDetail } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** GET /api/admin/transactions/{id}: a withdrawal with its approvals, timeline, payout, member and explorer links. */
export const getAdminTransaction = (id: string, signal?: AbortSignal) =>
  api.get<AdminTransactionDetail>(`/admin/transactions/${encodeURIComponent(id)}`, { signal });

export const adminTransactionQueryOptions = (id: string) =>
  queryOptions({
    queryKey: queryKeys.admin.transactionDetail(id),
    queryFn: ({ signal }) => getAdminTransaction(id, signal),
    // A payout in flight moves on by itself (the provider reports it): the open dialog follows it.
    refetchInterval: (query) => {
      const stage = query.state.data?.stage;
      return stage === 'sent' || stage === 'waiting_for_provider' ? 3000 : false;
    },
  });

/** The detail of one withdrawal (other transactions need nothing beyond their row). */
export function useAdminTransaction(id: string, { enabled }: { enabled: boolean }) {
  return useQuery({ ...adminTransactionQueryOptions(id), enabled, meta: { skipGlobalToast: true } });
}

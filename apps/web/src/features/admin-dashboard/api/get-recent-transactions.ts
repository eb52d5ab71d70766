import { queryOptions, useQuery } from '@tanstack/react-query';
import { messages, type AdminTransaction } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** The 10 most recent transactions on the platform, each with its member. */
export const getRecentTransactions = (signal?: AbortSignal) =>
  api.get<AdminTransaction[]>('/admin/dashboard/transactions', { signal });

export const recentTransactionsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.admin.recentTransactions(), queryFn: ({ signal }) => getRecentTransactions(signal) });

export function useRecentTransactions() {
  return useQuery({ ...recentTransactionsQueryOptions(), meta: { errorToast: messages.admin.dashboardFailed } });
}

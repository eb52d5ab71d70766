import { queryOptions, useQuery } from '@tanstack/react-query';
import { messages, type AdminTransaction } from '@terrafund/contracts';
import { api } from '@/lib/api-client';

/** Named outside the feature too: a withdrawal decision (admin-transactions) invalidates it by this exact value. */
export const recentTransactionsKey = ['admin', 'dashboard', 'transactions'] as const;

/** The 10 most recent transactions on the platform, each with its member. */
export const getRecentTransactions = (signal?: AbortSignal) =>
  api.get<AdminTransaction[]>('/admin/dashboard/transactions', { signal });

export const recentTransactionsQueryOptions = () =>
  queryOptions({ queryKey: recentTransactionsKey, queryFn: ({ signal }) => getRecentTransactions(signal) });

export function useRecentTransactions() {
  return useQuery({ ...recentTransactionsQueryOptions(), meta: { errorToast: messages.admin.dashboardFailed } });
}

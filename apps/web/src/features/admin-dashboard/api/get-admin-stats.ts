import { queryOptions, useQuery } from '@tanstack/react-query';
import { messages, type AdminStats } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** Users, investments, daily payouts and monthly volume, with growth against the previous 30 days. */
export const getAdminStats = (signal?: AbortSignal) => api.get<AdminStats>('/admin/dashboard/stats', { signal });

export const adminStatsQueryOptions = () => queryOptions({ queryKey: queryKeys.admin.stats(), queryFn: ({ signal }) => getAdminStats(signal) });

export function useAdminStats() {
  return useQuery({
    ...adminStatsQueryOptions(),
    // The recent-transactions query names the same message, and the global handler folds equal toasts
    // into one, so a dashboard whose two calls both fail says it once.
    meta: { errorToast: messages.admin.dashboardFailed },
  });
}

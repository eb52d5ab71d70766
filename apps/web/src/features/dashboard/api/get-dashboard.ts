import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Dashboard } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** The member's totals, membership and next payout (docs/product.md §5.6 Dividends, "Dashboard info"). */
export const getDashboard = (signal?: AbortSignal) => api.get<Dashboard>('/users/dashboard', { signal });

export const dashboardQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.dashboard(),
    queryFn: ({ signal }) => getDashboard(signal),
    // Spec section 8: a dashboard load failure is logged only, with no user message.
    meta: { skipGlobalToast: true },
  });

export function useDashboard() {
  return useQuery(dashboardQueryOptions());
}

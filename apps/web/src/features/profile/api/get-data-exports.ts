import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DataExport } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** How often the list is asked again while an export is being prepared (it is ready within seconds). */
export const PENDING_EXPORT_POLL_MS = 2000;

export const getDataExports = () => api.get<DataExport[]>('/users/data-export');

export const dataExportsQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.dataExports(),
    queryFn: getDataExports,
    // Asked again every moment only while an export is pending, so "Download" appears as soon as it is ready.
    refetchInterval: (query) => (query.state.data?.some((item) => item.status === 'pending') ? PENDING_EXPORT_POLL_MS : false),
  });

/** GET /api/users/data-export: the member's exports, newest first, with their status and when the link expires. */
export function useDataExports() {
  return useQuery(dataExportsQueryOptions());
}

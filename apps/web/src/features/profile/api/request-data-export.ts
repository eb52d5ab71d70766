import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DataExport, DataExportBody } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** POST /api/users/data-export {password | code}: 202 with the new export, pending; 429 when one was asked today. */
export const requestDataExport = (body: DataExportBody) => api.post<DataExport>('/users/data-export', body);

export function useRequestDataExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestDataExport,
    onSuccess: (created) => {
      // Shown at once, pending, so the list starts asking until it is ready.
      queryClient.setQueryData<DataExport[]>(queryKeys.dataExports(), (list) => [created, ...(list ?? []).filter((item) => item.id !== created.id)]);
      return queryClient.invalidateQueries({ queryKey: queryKeys.dataExports(), exact: true });
    },
    // The form puts a wrong password or code under its field, and toasts anything else, itself.
    meta: { skipGlobalToast: true },
  });
}

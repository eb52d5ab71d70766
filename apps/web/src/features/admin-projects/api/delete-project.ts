import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** DELETE /projects/{id} (admin): 204; 409 with the reason when members have invested in it. */
export const deleteProject = (id: string) => api.delete<void>(`/projects/${encodeURIComponent(id)}`);

export function useDeleteProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteProject,
    onSuccess: (_nothing, id) => {
      queryClient.removeQueries({ queryKey: queryKeys.project(id), exact: true });
      return queryClient.invalidateQueries({ queryKey: queryKeys.projectLists() });
    },
    // The confirmation dialog shows the failure (a 409 says why the project must stay).
    meta: { skipGlobalToast: true },
  });
}

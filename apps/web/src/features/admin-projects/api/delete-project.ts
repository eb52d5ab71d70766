import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { projectKey } from './get-project';
import { projectsListKey } from './get-projects';

/** DELETE /projects/{id} (admin): 204; 409 with the reason when members have invested in it. */
export const deleteProject = (id: string) => api.delete<void>(`/projects/${encodeURIComponent(id)}`);

export function useDeleteProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteProject,
    onSuccess: (_nothing, id) => {
      queryClient.removeQueries({ queryKey: projectKey(id), exact: true });
      return queryClient.invalidateQueries({ queryKey: projectsListKey });
    },
    // The confirmation dialog shows the failure (a 409 says why the project must stay).
    meta: { skipGlobalToast: true },
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messages, type Project, type UpdateProjectBody } from '@terrafund/contracts';
import { api, errorMessage } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export type UpdateProjectInput = { id: string; body: UpdateProjectBody };

/** PATCH /projects/{id} (admin) with the fields that changed; `details` travels whole (it replaces the stored one). */
export const updateProject = ({ id, body }: UpdateProjectInput) => api.patch<Project>(`/projects/${encodeURIComponent(id)}`, body);

export function useUpdateProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProject,
    onSuccess: (project, { id }) => {
      queryClient.setQueryData(queryKeys.project(id), project);
      return queryClient.invalidateQueries({ queryKey: queryKeys.projectLists() });
    },
    meta: { errorToast: (error) => errorMessage(error, messages.projects.updateFailed) },
  });
}

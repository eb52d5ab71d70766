import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messages, type Project, type UpdateProjectBody } from '@terrafund/contracts';
import { api, errorMessage } from '@/lib/api-client';
import { projectKey } from './get-project';
import { projectsListKey } from './get-projects';

export type UpdateProjectInput = { id: string; body: UpdateProjectBody };

/** PATCH /projects/{id} (admin) with the fields that changed; `details` travels whole (it replaces the stored one). */
export const updateProject = ({ id, body }: UpdateProjectInput) => api.patch<Project>(`/projects/${encodeURIComponent(id)}`, body);

export function useUpdateProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProject,
    onSuccess: (project, { id }) => {
      queryClient.setQueryData(projectKey(id), project);
      return queryClient.invalidateQueries({ queryKey: projectsListKey });
    },
    meta: { errorToast: (error) => errorMessage(error, messages.projects.updateFailed) },
  });
}

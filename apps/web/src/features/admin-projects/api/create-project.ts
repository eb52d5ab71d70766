import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messages, type CreateProjectBody, type Project } from '@terrafund/contracts';
import { api, errorMessage } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** POST /projects (admin): the project as created, with its id, owner and funded 0. */
export const createProject = (body: CreateProjectBody) => api.post<Project>('/projects', body);

export function useCreateProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProject,
    onSuccess: (project) => {
      queryClient.setQueryData(queryKeys.project(project._id), project);
      return queryClient.invalidateQueries({ queryKey: queryKeys.projectLists() });
    },
    meta: { errorToast: (error) => errorMessage(error, messages.projects.createFailed) },
  });
}

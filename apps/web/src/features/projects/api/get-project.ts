import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Project } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** GET /projects/{id}; a missing or malformed id answers 404. */
export const getProject = (id: string, signal?: AbortSignal) => api.get<Project>(`/projects/${encodeURIComponent(id)}`, { signal });

export const projectQueryOptions = (id: string) =>
  queryOptions({ queryKey: queryKeys.project(id), queryFn: ({ signal }) => getProject(id, signal) });

export function useProject(id: string) {
  return useQuery({
    ...projectQueryOptions(id),
    // The screen reports its own failure: "Project Not Found" in place for a 404, a toast otherwise.
    meta: { skipGlobalToast: true },
  });
}

import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Project } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** GET /projects/{id}; a missing or malformed id answers 404. */
export const getProject = (id: string, signal?: AbortSignal) => api.get<Project>(`/projects/${encodeURIComponent(id)}`, { signal });

export const projectQueryOptions = (id: string) =>
  queryOptions({ queryKey: queryKeys.project(id), queryFn: ({ signal }) => getProject(id, signal) });

export function useProject(id: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    ...projectQueryOptions(id),
    enabled,
    // The edit screen shows "not found" in place and toasts any other failure itself.
    meta: { skipGlobalToast: true },
    // An admin editing must start from the stored project, not a copy cached from the catalogue a while ago.
    staleTime: 0,
  });
}

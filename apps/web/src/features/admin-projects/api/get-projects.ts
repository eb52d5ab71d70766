import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Project, ProjectStatus } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export type AdminProjectsFilter = { search: string; status: ProjectStatus | '' };

/** GET /projects with the non-empty filters, newest first. */
export const getProjects = ({ search, status }: AdminProjectsFilter, signal?: AbortSignal) =>
  api.get<Project[]>('/projects', { params: { search, status }, signal });

export const projectsQueryOptions = (filter: AdminProjectsFilter) =>
  queryOptions({
    // The member catalogue's filter shape (with any type), so the two screens share what is already loaded.
    queryKey: queryKeys.projectList({ search: filter.search, type: '', status: filter.status }),
    queryFn: ({ signal }) => getProjects(filter, signal),
  });

export function useAdminProjects(filter: AdminProjectsFilter) {
  return useQuery({
    ...projectsQueryOptions(filter),
    // The table keeps the last results (dimmed) while a new search loads.
    placeholderData: keepPreviousData,
  });
}

import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Project, ProjectStatus } from '@terrafund/contracts';
import { api } from '@/lib/api-client';

export type AdminProjectsFilter = { search: string; status: ProjectStatus | '' };

/**
 * Every list of projects. The member catalogue (features/projects) keeps its lists under the same key and
 * with the same filter shape, so an admin's change refreshes both, and both share what is already loaded.
 */
export const projectsListKey = ['projects', 'list'] as const;

/** GET /projects with the non-empty filters, newest first. */
export const getProjects = ({ search, status }: AdminProjectsFilter, signal?: AbortSignal) =>
  api.get<Project[]>('/projects', { params: { search, status }, signal });

export const projectsQueryOptions = (filter: AdminProjectsFilter) =>
  queryOptions({
    queryKey: [...projectsListKey, { search: filter.search, type: '', status: filter.status }],
    queryFn: ({ signal }) => getProjects(filter, signal),
  });

export function useAdminProjects(filter: AdminProjectsFilter) {
  return useQuery({
    ...projectsQueryOptions(filter),
    // The table keeps the last results (dimmed) while a new search loads.
    placeholderData: keepPreviousData,
  });
}

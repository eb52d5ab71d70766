import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { DASHBOARD_PROJECTS, type Project, type ProjectStatus, type ProjectType } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** An empty filter means "all" (the spec's client sends only the non-empty ones). */
export type ProjectFilters = { search: string; type: ProjectType | ''; status: ProjectStatus | '' };
export const noProjectFilters: ProjectFilters = { search: '', type: '', status: '' };

/** GET /projects with the non-empty filters; the catalogue, newest first. */
export const getProjects = (filters: ProjectFilters, signal?: AbortSignal) =>
  api.get<Project[]>('/projects', { params: filters, signal });

export const projectsQueryOptions = (filters: ProjectFilters) =>
  queryOptions({
    queryKey: queryKeys.projectList(filters),
    queryFn: ({ signal }) => getProjects(filters, signal),
    // Spec section 8: a list load failure is logged only, with no user message.
    meta: { skipGlobalToast: true },
  });

export function useProjects(filters: ProjectFilters) {
  return useQuery({
    ...projectsQueryOptions(filters),
    // The grid keeps the last results (dimmed) while a new filter loads, instead of flashing skeletons.
    placeholderData: keepPreviousData,
  });
}

/** The dashboard's first projects of the unfiltered catalogue (docs/product.md §5.11 Projection: at most 3); shares its cache. */
export function useFeaturedProjects() {
  return useQuery({
    ...projectsQueryOptions(noProjectFilters),
    select: (projects) => projects.slice(0, DASHBOARD_PROJECTS),
  });
}

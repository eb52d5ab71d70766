import type { FetchQueryOptions, QueryClient, QueryKey } from '@tanstack/react-query';
import { paths } from '@/config/paths';
import { dashboardQueryOptions } from '@/features/dashboard/api/get-dashboard';
import { FIRST_PROJECTION_PERIOD, investmentPerformanceQueryOptions } from '@/features/dashboard/api/get-investment-performance';
import { noProjectFilters, projectsQueryOptions } from '@/features/projects/api/get-projects';
import { apiUrl } from '@/lib/api-client';
import { startupProfileQueryOptions } from '@/lib/auth';
import { getToken } from '@/lib/auth-storage';

/**
 * What a signed-in screen draws first, asked for before the app's first draw (issue 17: the member dashboard on a
 * slow phone). Without this the screen came in three waves, each a render of its own after the first paint: a
 * spinner while the profile was checked, then the screen's skeletons, then its figures, each wave waiting for the
 * previous one's request. Now the page sends these GETs itself while the scripts download (index.html, from the
 * `data-api` addresses scripts/prerender.mjs writes on the screen's page; the profile check on every page with a
 * session), `api` takes their answers (lib/api-client.ts), and main.tsx puts them in the query cache before the
 * first draw, so the screen is drawn once, with its figures.
 *
 * `url` is the address `api` asks for the query: a test holds the two equal (startup-data.test.tsx).
 */
type StartupQuery = { url: string; prefetch: (queryClient: QueryClient) => Promise<void> };

const startupQuery = <T, K extends QueryKey>(url: string, options: FetchQueryOptions<T, Error, T, K>): StartupQuery => ({
  url,
  prefetch: (queryClient) => queryClient.prefetchQuery(options),
});

const screens: Record<string, () => StartupQuery[]> = {
  [paths.dashboard.path]: () => [
    startupQuery(apiUrl('/users/dashboard'), dashboardQueryOptions()),
    startupQuery(apiUrl('/users/investment-performance', { period: FIRST_PROJECTION_PERIOD }), investmentPerformanceQueryOptions(FIRST_PROJECTION_PERIOD)),
    startupQuery(apiUrl('/projects', noProjectFilters), projectsQueryOptions(noProjectFilters)),
  ],
};

const queriesOf = (pathname: string): StartupQuery[] => screens[pathname]?.() ?? [];

/** The addresses the page for `pathname` asks for before the app runs (besides the profile, which every page asks for). */
export const earlyRequests = (pathname: string): string[] => queriesOf(pathname).map((query) => query.url);

/**
 * With a stored session: the profile check, then, if the session is good, `pathname`'s first figures, fetched into
 * `queryClient` (answers the page already has are taken, not asked again). Never fails: a failed query is left in
 * the cache as failed, and AuthProvider or the screen handles it as it would have.
 */
export async function loadStartupData(queryClient: QueryClient, pathname: string): Promise<void> {
  if (getToken() === null) return;
  const profile = startupProfileQueryOptions();
  await queryClient.prefetchQuery(profile);
  // A session the server refused ends here (AuthProvider drops it): its screen's queries would only be refused too.
  if (queryClient.getQueryState(profile.queryKey)?.status !== 'success') return;
  await Promise.all(queriesOf(pathname).map((query) => query.prefetch(queryClient)));
}

import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { NotificationsPage } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** Every page of the bell's list; marking read makes them stale. */
export const getNotifications = (cursor: string | null, signal?: AbortSignal) =>
  api.get<NotificationsPage>('/notifications', { params: { cursor }, signal });

export const notificationsQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: queryKeys.notifications(),
    queryFn: ({ pageParam, signal }) => getNotifications(pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

export function useNotifications() {
  return useInfiniteQuery({
    ...notificationsQueryOptions(),
    // No timer: every request keeps the session alive, so polling would defeat the idle sign-out. The bell asks
    // again when the window regains focus, when the page loads and when it is opened.
    staleTime: 0,
    refetchOnWindowFocus: 'always',
    // A background poll that fails says nothing: the bell shows its own message when opened.
    meta: { skipGlobalToast: true },
  });
}

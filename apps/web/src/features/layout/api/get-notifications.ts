import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { NotificationsPage } from '@terrafund/contracts';
import { api } from '@/lib/api-client';

/** Every page of the bell's list; marking read makes them stale. */
export const notificationsKey = ['notifications'] as const;

/** How often the bell asks for news while the page is open (it also asks when the window regains focus). */
export const NOTIFICATIONS_POLL_MS = 60_000;

export const getNotifications = (cursor: string | null, signal?: AbortSignal) =>
  api.get<NotificationsPage>('/notifications', { params: { cursor }, signal });

export const notificationsQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: notificationsKey,
    queryFn: ({ pageParam, signal }) => getNotifications(pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

export function useNotifications() {
  return useInfiniteQuery({
    ...notificationsQueryOptions(),
    refetchInterval: NOTIFICATIONS_POLL_MS,
    refetchOnWindowFocus: true,
    // A background poll that fails says nothing: the bell shows its own message when opened.
    meta: { skipGlobalToast: true },
  });
}

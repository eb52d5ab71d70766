import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { mailMessages, type UndeliverableMailPage } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** Mail the outbox gave up on; a resend makes it stale. */
/** One page (50, newest first) of undeliverable mail, with the count of all of it. */
export const getUndeliverableMail = (cursor: string | undefined, signal?: AbortSignal) =>
  api.get<UndeliverableMailPage>('/admin/mail/undeliverable', { params: { cursor }, signal });

export const undeliverableMailQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: queryKeys.admin.undeliverableMail(),
    queryFn: ({ pageParam, signal }) => getUndeliverableMail(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
  });

export function useUndeliverableMail() {
  return useInfiniteQuery({ ...undeliverableMailQueryOptions(), meta: { errorToast: mailMessages.loadFailed } });
}

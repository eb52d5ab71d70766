import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_PAGE_SIZE, messages, type UserWithKyc } from '@terrafund/contracts';
import { getPage } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export type UsersFilter = { search: string; page: number };

/** One page of all users, newest first, matching a name or e-mail; the total comes with it. */
export const getUsers = ({ search, page }: UsersFilter, signal?: AbortSignal) =>
  getPage<UserWithKyc>('/admin/users', { params: { search: search || undefined, page, limit: ADMIN_PAGE_SIZE }, signal });

export const usersQueryOptions = (filter: UsersFilter) =>
  queryOptions({
    queryKey: queryKeys.admin.userList(filter),
    queryFn: ({ signal }) => getUsers(filter, signal),
  });

export function useUsers(filter: UsersFilter, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    ...usersQueryOptions(filter),
    enabled,
    // The table keeps showing the last page while the next one loads, instead of flashing empty.
    placeholderData: keepPreviousData,
    meta: { errorToast: messages.kyc.loadUsersFailed },
  });
}

import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminUserDetail } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** A user with their KYC, recent transactions and the audit log of decisions about them. */
export const getUserDetail = (userId: string, signal?: AbortSignal) =>
  api.get<AdminUserDetail>(`/admin/users/${encodeURIComponent(userId)}`, { signal });

export const userDetailQueryOptions = (userId: string) =>
  queryOptions({ queryKey: queryKeys.admin.userDetail(userId), queryFn: ({ signal }) => getUserDetail(userId, signal) });

export function useUserDetail(userId: string) {
  return useQuery({
    ...userDetailQueryOptions(userId),
    // The screen says what went wrong in place ("User not found" or "Failed to load user data"), not in a toast.
    meta: { skipGlobalToast: true },
  });
}

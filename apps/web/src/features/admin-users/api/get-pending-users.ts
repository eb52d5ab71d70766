import { queryOptions, useQuery } from '@tanstack/react-query';
import { messages, type UserWithKyc } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** Every user whose KYC waits for a decision (the server answers them all, unpaged). */
export const getPendingUsers = (signal?: AbortSignal) => api.get<UserWithKyc[]>('/admin/pending', { signal });

export const pendingUsersQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.admin.pendingUsers(), queryFn: ({ signal }) => getPendingUsers(signal) });

export function usePendingUsers({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...pendingUsersQueryOptions(), enabled, meta: { errorToast: messages.kyc.loadPendingFailed } });
}

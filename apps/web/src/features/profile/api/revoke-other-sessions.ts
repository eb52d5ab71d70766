import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const revokeOtherSessions = () => api.delete<void>('/users/sessions');

/** "Sign out everywhere else": every session but this one. */
export function useRevokeOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: revokeOtherSessions, onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.sessions() }) });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const revokeSession = (id: string) => api.delete<void>(`/users/sessions/${encodeURIComponent(id)}`);

/** Signs one of the member's sessions out. */
export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: revokeSession, onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.sessions() }) });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MarkNotificationsReadBody } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const markNotificationsRead = (body: MarkNotificationsReadBody) => api.post<{ unreadCount: number }>('/notifications/read', body);

export function useMarkNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markNotificationsRead,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.notifications() }),
  });
}

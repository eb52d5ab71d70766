import { queryOptions, useQuery } from '@tanstack/react-query';
import type { NotificationPreferences } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getNotificationPreferences = () => api.get<NotificationPreferences>('/users/notification-preferences');

export const notificationPreferencesQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.notificationPreferences(), queryFn: getNotificationPreferences });

/** GET /api/users/notification-preferences: per kind, whether it is mailed as well as shown in the bell. */
export function useNotificationPreferences() {
  return useQuery(notificationPreferencesQueryOptions());
}

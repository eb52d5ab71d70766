import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messages, type NotificationPreferences, type UpdateNotificationPreferencesBody } from '@terrafund/contracts';
import { api, errorMessage } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { localizeMessage } from '@terrafund/contracts/i18n';
import { i18n } from '@/lib/i18n';

/** PATCH /api/users/notification-preferences with the kinds changed; answers the whole object. */
export const updateNotificationPreferences = (body: UpdateNotificationPreferencesBody) =>
  api.patch<NotificationPreferences>('/users/notification-preferences', body);

/**
 * Saved on change: the switch moves at once (the cache is updated before the server answers) and goes back if the
 * server refuses; the server's answer, the whole object, then becomes the cache.
 */
export function useUpdateNotificationPreferences() {
  const queryClient = useQueryClient();
  const key = queryKeys.notificationPreferences();
  return useMutation({
    mutationFn: updateNotificationPreferences,
    // One change at a time, in the order made: an earlier answer never overwrites a later switch.
    scope: { id: 'notification-preferences' },
    onMutate: async (change) => {
      await queryClient.cancelQueries({ queryKey: key, exact: true });
      const previous = queryClient.getQueryData<NotificationPreferences>(key);
      if (previous) queryClient.setQueryData<NotificationPreferences>(key, { ...previous, ...change } as NotificationPreferences);
      return { previous };
    },
    onError: (_error, _change, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
    onSuccess: (saved) => queryClient.setQueryData(key, saved),
    meta: { errorToast: (error) => errorMessage(error, localizeMessage(i18n.t, messages.privacy.preferencesFailed)) },
  });
}

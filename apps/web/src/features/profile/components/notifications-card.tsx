import { NOTIFICATION_PREFERENCE_KINDS, type NotificationPreferenceKind } from '@terrafund/contracts';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { Switch } from '@/components/ui/switch';
import { useNotificationPreferences } from '../api/get-notification-preferences';
import { useUpdateNotificationPreferences } from '../api/update-notification-preferences';
import { useT } from '@/lib/i18n';
import { ProfileCard } from './profile-card';

/**
 * Profile → Notifications (issue 34): per kind, whether it is e-mailed as well as shown in the bell; each switch
 * is saved as soon as it is changed. Security mails cannot be switched off, and the card says so.
 */
export function NotificationsCard() {
  const preferences = useNotificationPreferences();
  const update = useUpdateNotificationPreferences();
  const { t } = useT('profile');

  const change = (kind: NotificationPreferenceKind, on: boolean) => update.mutate({ [kind]: on });

  return (
    <ProfileCard id="notifications-title" title={t('notifications.title')} description={t('notifications.description')}>
      <div className="px-5 py-4 sm:px-6">
        {preferences.isPending ? (
          <Spinner label={t('notifications.loading')} />
        ) : preferences.isError ? (
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p role="alert" className="text-sm text-slate-600 dark:text-slate-300">
              {t('notifications.failed')}
            </p>
            <Button variant="outline" size="sm" onClick={() => void preferences.refetch()} isLoading={preferences.isFetching}>
              {t('notifications.retry')}
            </Button>
          </div>
        ) : (
          <ul aria-label={t('notifications.list')} className="divide-y divide-slate-200 dark:divide-slate-800">
            {NOTIFICATION_PREFERENCE_KINDS.map((kind) => (
              <li key={kind} className="py-2.5">
                <Switch
                  label={t(`notifications.kinds.${kind}`)}
                  description={t(`notifications.descriptions.${kind}`)}
                  checked={preferences.data[kind]}
                  onChange={(on) => change(kind, on)}
                />
              </li>
            ))}
          </ul>
        )}
        <p className="mt-3 text-xs text-slate-500 dark:text-slate-400">
          {t('notifications.security')}
        </p>
      </div>
    </ProfileCard>
  );
}

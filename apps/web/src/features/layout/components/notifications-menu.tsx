import { Link } from 'react-router';
import { messages, NOTIFICATION_LINKS, type Notification } from '@terrafund/contracts';
import { Button } from '@/components/ui/button';
import { Dropdown } from '@/components/ui/dropdown';
import { BellIcon, InboxIcon } from 'lucide-react';
import { LoadingBlock } from '@/components/ui/load-state';
import { cn } from '@/lib/cn';
import { formatDateTime } from '@/lib/format';
import { useNotifications } from '../api/get-notifications';
import { useMarkNotificationsRead } from '../api/mark-notifications-read';
import { useT } from '@/lib/i18n';

/** "9+" beyond nine, so the badge stays a dot-sized pill. */
const badgeText = (count: number) => (count > 9 ? '9+' : String(count));

/**
 * The bell (docs/product.md §8.3 The bell): the unread count as a badge, the member's notifications newest first, each
 * linking to its screen. Opening an item marks it read; "Mark all as read" marks the rest. It asks for news
 * when the page loads, when the window regains focus and when it is opened.
 */
export function NotificationsMenu() {
  const notifications = useNotifications();
  const markRead = useMarkNotificationsRead();
  const unread = notifications.data?.pages[0]?.unreadCount ?? 0;
  const items = notifications.data?.pages.flatMap((page) => page.items) ?? [];
  const refresh = notifications.refetch;
  const { t, say } = useT('layout');

  return (
    <Dropdown
      label={unread > 0 ? t('notifications.unread', { count: unread }) : t('notifications.title')}
      triggerClassName="relative inline-flex h-10 w-10 items-center justify-center rounded-lg text-slate-500 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white"
      panelClassName="w-72 max-w-[calc(100vw-2rem)] sm:w-80"
      onOpen={() => void refresh()}
      trigger={
        <>
          <BellIcon className="h-5 w-5" />
          {unread > 0 && (
            <span
              aria-hidden="true"
              data-testid="notifications-badge"
              className="absolute top-1 right-1 flex h-4 min-w-4 items-center justify-center rounded-full bg-rose-600 px-1 text-[10px] leading-none font-semibold text-white"
            >
              {badgeText(unread)}
            </span>
          )}
        </>
      }
    >
      {({ close }) => (
        <div>
          <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-4 py-3 dark:border-slate-800">
            <p className="text-sm font-semibold text-slate-900 dark:text-white">{t('notifications.title')}</p>
            {unread > 0 && (
              <button
                type="button"
                onClick={() => markRead.mutate({ all: true })}
                className="text-xs font-medium text-emerald-700 hover:underline focus-visible:outline-2 focus-visible:outline-emerald-500 dark:text-emerald-400"
              >
                {t('notifications.markAllRead')}
              </button>
            )}
          </div>
          {notifications.isPending ? (
            <LoadingBlock label={t('notifications.loading')} className="py-8" />
          ) : notifications.isError && items.length === 0 ? (
            <div role="alert" className="px-4 py-8 text-center text-sm text-slate-600 dark:text-slate-300">
              <p>{say(messages.notifications.loadFailed)}</p>
              <Button variant="outline" size="sm" className="mt-3" onClick={() => void notifications.refetch()}>
                {t('common:tryAgain')}
              </Button>
            </div>
          ) : items.length === 0 ? (
            <div className="flex flex-col items-center px-4 py-8 text-center">
              <InboxIcon className="h-8 w-8 text-slate-300 dark:text-slate-600" />
              <p className="mt-3 text-sm font-medium text-slate-700 dark:text-slate-200">{say(messages.notifications.empty)}</p>
              <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">{t('notifications.emptyHint')}</p>
            </div>
          ) : (
            <>
              <ul aria-label={t('notifications.title')} className="max-h-96 divide-y divide-slate-100 overflow-y-auto dark:divide-slate-800">
                {items.map((item) => (
                  <NotificationItem
                    key={item.id}
                    item={item}
                    onOpen={() => {
                      if (!item.readAt) markRead.mutate({ ids: [item.id] });
                      close();
                    }}
                  />
                ))}
              </ul>
              {notifications.hasNextPage && (
                <div className="border-t border-slate-200 p-2 text-center dark:border-slate-800">
                  <Button
                    variant="ghost"
                    size="sm"
                    isLoading={notifications.isFetchingNextPage}
                    onClick={() => void notifications.fetchNextPage()}
                  >
                    {t('notifications.showOlder')}
                  </Button>
                </div>
              )}
            </>
          )}
        </div>
      )}
    </Dropdown>
  );
}

function NotificationItem({ item, onOpen }: { item: Notification; onOpen: () => void }) {
  const unread = item.readAt === null;
  const { t } = useT('layout');
  return (
    <li>
      <Link
        to={NOTIFICATION_LINKS[item.type]}
        onClick={onOpen}
        className={cn(
          'block px-4 py-3 hover:bg-slate-50 focus-visible:bg-slate-50 focus-visible:outline-none dark:hover:bg-slate-800/60 dark:focus-visible:bg-slate-800/60',
          unread && 'bg-emerald-50/60 dark:bg-emerald-500/5',
        )}
      >
        <span className="flex items-start gap-2">
          {unread && <span className="mt-1.5 h-2 w-2 shrink-0 rounded-full bg-emerald-500" aria-hidden="true" />}
          <span className="min-w-0">
            <span className={cn('block text-sm text-slate-900 dark:text-white', unread ? 'font-semibold' : 'font-medium')}>
              {item.title}
              {unread && <span className="sr-only"> {t('notifications.unreadMark')}</span>}
            </span>
            <span className="mt-0.5 block text-xs break-words text-slate-600 dark:text-slate-300">{item.body}</span>
            <span className="mt-1 block text-xs text-slate-400 dark:text-slate-500">{formatDateTime(item.createdAt)}</span>
          </span>
        </span>
      </Link>
    </li>
  );
}

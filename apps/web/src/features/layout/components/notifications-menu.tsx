import { Dropdown } from '@/components/ui/dropdown';
import { BellIcon, InboxIcon } from '@/components/ui/icons';

/** The bell (decisions section 6): notifications are later work, so it opens on an honest empty state. */
export function NotificationsMenu() {
  return (
    <Dropdown
      label="Notifications"
      triggerClassName="inline-flex h-10 w-10 items-center justify-center rounded-lg text-slate-500 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white"
      panelClassName="w-72 max-w-[calc(100vw-2rem)]"
      trigger={<BellIcon />}
    >
      {() => (
        <div>
          <p className="border-b border-slate-200 px-4 py-3 text-sm font-semibold text-slate-900 dark:border-slate-800 dark:text-white">
            Notifications
          </p>
          <div className="flex flex-col items-center px-4 py-8 text-center">
            <InboxIcon className="h-8 w-8 text-slate-300 dark:text-slate-600" />
            <p className="mt-3 text-sm font-medium text-slate-700 dark:text-slate-200">No notifications yet</p>
            <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">We will let you know here when something needs your attention.</p>
          </div>
        </div>
      )}
    </Dropdown>
  );
}

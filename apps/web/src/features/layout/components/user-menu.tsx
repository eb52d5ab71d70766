import { Link } from 'react-router';
import type { User } from '@terrafund/contracts';
import { paths } from '@/config/paths';
import { Dropdown } from '@/components/ui/dropdown';
import { ChevronDownIcon, LogOutIcon, UserIcon, WalletIcon } from 'lucide-react';
import { useLogout } from '@/lib/auth';
import { getInitials } from '@/lib/format';
import { useT } from '@/lib/i18n';
import { LanguageMenu } from '@/components/language-menu';

const itemClasses =
  'flex w-full items-center gap-3 rounded-lg px-3 py-2 text-left text-sm text-slate-700 hover:bg-slate-100 focus-visible:bg-slate-100 focus-visible:outline-none dark:text-slate-200 dark:hover:bg-slate-800 dark:focus-visible:bg-slate-800';

/** The menu's links, above Sign out; `label` is the key of its text in the layout namespace. */
const MENU_LINKS = [
  { href: paths.profile.getHref(), icon: UserIcon, label: 'userMenu.profile' },
  { href: paths.wallet.getHref(), icon: WalletIcon, label: 'userMenu.plan' },
] as const;

/** The avatar with the member's name and the Profile / Plan / Sign out menu (docs/product.md §2.3 Layout). */
export function UserMenu({ user }: { user: User }) {
  const logout = useLogout();
  const { t } = useT('layout');
  const fullName = `${user.firstName} ${user.lastName}`;
  return (
    <Dropdown
      triggerClassName="flex items-center gap-2.5 rounded-full py-1 pr-2 pl-1 hover:bg-slate-100 sm:rounded-lg dark:hover:bg-slate-800"
      panelClassName="w-64 p-2"
      trigger={
        <>
          <span
            aria-hidden="true"
            className="flex h-8 w-8 items-center justify-center rounded-full bg-gradient-to-br from-emerald-500 to-teal-600 text-xs font-semibold text-white"
          >
            {getInitials(user.firstName, user.lastName)}
          </span>
          <span className="sr-only text-sm font-medium text-slate-700 sm:not-sr-only sm:max-w-40 sm:truncate dark:text-slate-200">
            {fullName}
          </span>
          <ChevronDownIcon className="hidden h-4 w-4 text-slate-400 sm:block" />
        </>
      }
    >
      {({ close }) => (
        <>
          <div className="border-b border-slate-200 px-3 pt-2 pb-3 dark:border-slate-800">
            <p className="truncate text-sm font-semibold text-slate-900 dark:text-white">{fullName}</p>
            <p className="truncate text-xs text-slate-500 dark:text-slate-400">{user.email}</p>
          </div>
          <LanguageMenu labelled className="border-b border-slate-200 px-3 py-3 sm:hidden dark:border-slate-800" />
          <ul className="pt-2">
            {MENU_LINKS.map(({ href, icon: Icon, label }) => (
              <li key={href}>
                <Link to={href} onClick={close} className={itemClasses}>
                  <Icon className="h-4 w-4 text-slate-400" />
                  {t(label)}
                </Link>
              </li>
            ))}
            <li>
              <button
                type="button"
                onClick={() => {
                  close();
                  void logout();
                }}
                className={itemClasses}
              >
                <LogOutIcon className="h-4 w-4 text-slate-400" />
                {t('userMenu.signOut')}
              </button>
            </li>
          </ul>
        </>
      )}
    </Dropdown>
  );
}

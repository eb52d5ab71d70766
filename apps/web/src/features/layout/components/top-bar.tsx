import { Link } from 'react-router';
import type { User } from '@terrafund/contracts';
import { paths } from '@/config/paths';
import { buttonClasses } from '@/components/ui/button';
import { MenuIcon } from 'lucide-react';
import { Logo } from '@/components/ui/logo';
import { ThemeToggle } from '@/components/ui/theme-toggle';
import { LanguageMenu } from '@/components/language-menu';
import { NotificationsMenu } from './notifications-menu';
import { UserMenu } from './user-menu';
import { useT } from '@/lib/i18n';

type TopBarProps = { user: User | null; menuOpen: boolean; onMenuClick: () => void };

/** The top bar (docs/product.md §2.3 Layout): menu button on small screens, logo, theme toggle, bell and the account menu. */
export function TopBar({ user, menuOpen, onMenuClick }: TopBarProps) {
  const { t } = useT('layout');
  return (
    <header className="fixed inset-x-0 top-0 z-40 h-16 border-b border-slate-200 bg-white/85 backdrop-blur-md dark:border-slate-800 dark:bg-slate-950/85">
      <div className="flex h-full items-center gap-2 px-3 sm:px-6">
        {user && (
          <button
            type="button"
            onClick={onMenuClick}
            aria-label={t('topBar.openMenu')}
            aria-expanded={menuOpen}
            aria-controls={menuOpen ? 'mobile-sidebar' : undefined}
            className="inline-flex h-10 w-10 items-center max-sm:h-11 max-sm:w-11 justify-center rounded-lg text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-emerald-500 lg:hidden dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white"
          >
            <MenuIcon className="h-5 w-5" />
          </button>
        )}
        <Link to={paths.home.getHref()} aria-label={t('common:home')} className="rounded-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-500">
          <Logo />
        </Link>
        <div className="ml-auto flex items-center gap-1 sm:gap-2">
          {/* A signed-in phone's bar has no room for it: it is in the account menu there. */}
          <LanguageMenu className={user ? 'max-sm:hidden' : undefined} />
          <ThemeToggle />
          {user ? (
            <>
              <NotificationsMenu />
              <UserMenu user={user} />
            </>
          ) : (
            <Link to={paths.login.getHref()} className={buttonClasses({ size: 'sm', className: 'ml-1' })}>
              {t('topBar.signIn')}
            </Link>
          )}
        </div>
      </div>
    </header>
  );
}

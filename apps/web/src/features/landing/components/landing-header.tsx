import { Link } from 'react-router';

import { buttonClasses } from '@/components/ui/button';
import { MenuIcon, XIcon } from 'lucide-react';
import { Logo } from '@/components/ui/logo';
import { ThemeToggle } from '@/components/ui/theme-toggle';
import { useDisclosure } from '@/components/ui/use-disclosure';
import { paths } from '@/config/paths';
import { LanguageMenu } from '@/components/language-menu';
import { useT } from '@/lib/i18n';

import { LANDING_NAV } from '../sections';
import { scrollToSection } from '../utils/scroll-to-section';

const menuItem =
  'flex h-12 w-full items-center rounded-lg px-3 text-left text-base font-medium text-slate-700 transition-colors hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-500 dark:text-slate-200 dark:hover:bg-slate-800 dark:hover:text-white';

/**
 * The landing page's own top bar (the signed-in one lives in the app layout). Below `md` the section
 * buttons and Login move into a disclosure menu; Sign up stays visible as the main call to action.
 */
export function LandingHeader() {
  const { t } = useT('landing');
  const menu = useDisclosure<HTMLElement>();

  function goTo(id: string) {
    // The menu is an overlay, so closing it first does not move the section being measured.
    menu.setOpen(false);
    scrollToSection(id);
  }

  return (
    <header
      ref={menu.rootRef}
      className="sticky top-0 z-40 border-b border-slate-200/80 bg-white/85 backdrop-blur-md dark:border-white/10 dark:bg-slate-950/80"
    >
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-3 px-4 sm:px-6 lg:px-8">
        <Link
          to={paths.home.getHref()}
          aria-label={t('header.home')}
          className="rounded-md focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-emerald-500"
        >
          <Logo />
        </Link>

        <nav aria-label={t('nav.label')} className="hidden items-center gap-1 md:flex">
          {LANDING_NAV.map((section) => (
            <button
              key={section.id}
              type="button"
              className={buttonClasses({ variant: 'ghost' })}
              onClick={() => goTo(section.id)}
            >
              {t(section.label)}
            </button>
          ))}
        </nav>

        <div className="flex items-center gap-1 sm:gap-2">
          {/* A phone's bar has no room for it: it is in the menu panel there. */}
          <LanguageMenu className="max-sm:hidden" />
          <ThemeToggle />
          <Link
            to={paths.login.getHref()}
            className={buttonClasses({ variant: 'ghost', className: 'max-md:hidden' })}
          >
            {t('header.login')}
          </Link>
          <Link to={paths.register.getHref()} className={buttonClasses({ className: 'whitespace-nowrap' })}>
            {t('header.signUp')}
          </Link>
          <button
            ref={menu.triggerRef}
            type="button"
            className={buttonClasses({ variant: 'ghost', size: 'icon', className: 'md:hidden' })}
            aria-expanded={menu.open}
            aria-controls={menu.open ? menu.panelId : undefined}
            aria-label={menu.open ? t('header.closeMenu') : t('header.openMenu')}
            onClick={() => menu.setOpen((open) => !open)}
          >
            {menu.open ? <XIcon className="h-6 w-6" /> : <MenuIcon className="h-6 w-6" />}
          </button>
        </div>
      </div>

      {menu.open && (
        <div
          id={menu.panelId}
          className="absolute inset-x-0 top-full border-b border-slate-200 bg-white px-4 pt-2 pb-4 shadow-lg md:hidden dark:border-white/10 dark:bg-slate-950"
        >
          <nav aria-label={t('nav.label')} className="flex flex-col gap-1">
            {LANDING_NAV.map((section) => (
              <button
                key={section.id}
                type="button"
                className={menuItem}
                onClick={() => goTo(section.id)}
              >
                {t(section.label)}
              </button>
            ))}
          </nav>
          <LanguageMenu labelled className="mt-2 border-t border-slate-200 px-3 pt-3 pb-1 sm:hidden dark:border-white/10" />
          <div className="mt-2 border-t border-slate-200 pt-2 dark:border-white/10">
            <Link
              to={paths.login.getHref()}
              className={menuItem}
              onClick={() => menu.setOpen(false)}
            >
              {t('header.login')}
            </Link>
          </div>
        </div>
      )}
    </header>
  );
}

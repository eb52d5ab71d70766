import { useEffect, useRef } from 'react';
import { Link, useLocation } from 'react-router';
import type { Role } from '@terrafund/contracts';
import { paths } from '@/config/paths';
import { XIcon } from 'lucide-react';
import { Logo } from '@/components/ui/logo';
import { ModalBackdrop } from '@/components/ui/modal-parts';
import { cn } from '@/lib/cn';
import { useFocusTrap } from '@/lib/use-focus-trap';
import { isActivePath, navigationFor } from './nav-items';
import { useT } from '@/lib/i18n';

function Navigation({ role, onNavigate }: { role: Role; onNavigate?: () => void }) {
  const { pathname } = useLocation();
  const { t } = useT('layout');
  return (
    <nav aria-label={t('sidebar.main')} className="flex-1 space-y-6 overflow-y-auto px-3 py-6">
      {navigationFor(role).map((group) => (
        <div key={group.title}>
          <p className="px-3 text-xs font-semibold tracking-wider text-slate-400 uppercase dark:text-slate-500">{t(group.title)}</p>
          <ul className="mt-2 space-y-1">
            {group.items.map(({ label, href, icon: Icon }) => {
              const active = isActivePath(pathname, href);
              return (
                <li key={href}>
                  <Link
                    to={href}
                    onClick={onNavigate}
                    aria-current={active ? 'page' : undefined}
                    className={cn(
                      'group flex items-center gap-3 rounded-lg px-3 py-2.5 text-sm font-medium transition-colors',
                      'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-500',
                      active
                        ? 'bg-emerald-50 text-emerald-700 dark:bg-emerald-500/10 dark:text-emerald-300'
                        : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-400 dark:hover:bg-slate-800/70 dark:hover:text-white',
                    )}
                  >
                    <Icon
                      className={cn(
                        'h-5 w-5 shrink-0',
                        active ? 'text-emerald-600 dark:text-emerald-400' : 'text-slate-400 group-hover:text-slate-600 dark:text-slate-500 dark:group-hover:text-slate-300',
                      )}
                    />
                    {t(label)}
                  </Link>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </nav>
  );
}

type SidebarProps = { role: Role; open: boolean; onClose: () => void };

/**
 * The side menu (docs/product.md §2.3 Layout): fixed and 16rem wide on large screens; on smaller ones a drawer
 * over a dimmed page, opened from the top bar and closed by its button, the backdrop, Escape or a link.
 */
export function Sidebar({ role, open, onClose }: SidebarProps) {
  const closeRef = useRef<HTMLButtonElement>(null);
  const { t } = useT('layout');
  // Focus stays where the drawer's link or button sent it once it closes, so it is not handed back.
  const drawerRef = useFocusTrap<HTMLElement>(open, onClose, { initialFocus: closeRef, restoreFocus: false });

  useEffect(() => {
    if (!open) return;
    // A drawer left open while the window grows past the breakpoint must not keep the page locked.
    const wide = window.matchMedia?.('(min-width: 1024px)');
    const onResize = () => {
      if (wide?.matches) onClose();
    };
    wide?.addEventListener('change', onResize);
    return () => wide?.removeEventListener('change', onResize);
  }, [open, onClose]);

  return (
    <>
      <aside
        aria-label={t('sidebar.label')}
        className="fixed top-16 bottom-0 left-0 z-30 hidden w-64 flex-col border-r border-slate-200 bg-white lg:flex dark:border-slate-800 dark:bg-slate-950"
      >
        <Navigation role={role} />
      </aside>

      {open && (
        <div className="fixed inset-0 z-50 lg:hidden">
          <ModalBackdrop onClose={onClose} />
          <aside
            ref={drawerRef}
            id="mobile-sidebar"
            role="dialog"
            aria-modal="true"
            aria-label={t('sidebar.menu')}
            className="relative flex h-full w-64 max-w-[85vw] flex-col border-r border-slate-200 bg-white shadow-xl dark:border-slate-800 dark:bg-slate-950"
          >
            <div className="flex h-16 shrink-0 items-center justify-between border-b border-slate-200 px-4 dark:border-slate-800">
              <Link to={paths.home.getHref()} onClick={onClose} aria-label={t('common:home')} className="rounded-md focus-visible:outline-2 focus-visible:outline-emerald-500">
                <Logo />
              </Link>
              <button
                ref={closeRef}
                type="button"
                onClick={onClose}
                aria-label={t('sidebar.closeMenu')}
                className="rounded-lg p-2 text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-emerald-500 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white"
              >
                <XIcon className="h-5 w-5" />
              </button>
            </div>
            <Navigation role={role} onNavigate={onClose} />
          </aside>
        </div>
      )}
    </>
  );
}

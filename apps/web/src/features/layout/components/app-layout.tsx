import { useCallback, useState } from 'react';
import { Outlet } from 'react-router';
import { FullScreenSpinner } from '@/components/ui/spinner';
import { useAuth } from '@/lib/auth';
import { Sidebar } from './sidebar';
import { TopBar } from './top-bar';

/** Every page but the five public ones (docs/product.md §2.3 Layout): a top bar, and a sidebar when someone is signed in. */
export function AppLayout() {
  const auth = useAuth();
  const [menuOpen, setMenuOpen] = useState(false);
  const closeMenu = useCallback(() => setMenuOpen(false), []);

  if (auth.status === 'loading') return <FullScreenSpinner />;
  const { user } = auth;

  return (
    <div className="min-h-dvh">
      <a
        href="#main"
        className="sr-only z-[70] rounded-md bg-emerald-600 px-4 py-2 text-sm font-medium text-white focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      <TopBar user={user} menuOpen={menuOpen} onMenuClick={() => setMenuOpen(true)} />
      {user && <Sidebar role={user.role} open={menuOpen} onClose={closeMenu} />}
      <main id="main" tabIndex={-1} className={user ? 'pt-16 focus:outline-none lg:pl-64' : 'pt-16 focus:outline-none'}>
        <div className="mx-auto w-full max-w-7xl px-4 py-6 sm:px-6 sm:py-8 lg:px-8">
          <Outlet />
        </div>
      </main>
    </div>
  );
}

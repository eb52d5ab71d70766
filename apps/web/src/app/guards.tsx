import { Navigate, Outlet, useLocation, type Location } from 'react-router';
import { DEFAULT_AFTER_LOGIN, paths } from '@/config/paths';
import { FullScreenSpinner } from '@/components/ui/spinner';
import { useAuth } from '@/lib/auth';

/** What a guard leaves in the history entry of /login: the page that was asked for. */
export type LoginState = { from?: Location };

/** Signed-in pages: a spinner while the session is checked, else /login remembering where the user was going. */
export function RequireAuth() {
  const auth = useAuth();
  const location = useLocation();
  if (auth.status === 'loading') return <FullScreenSpinner />;
  if (auth.status === 'unauthenticated') {
    // After signing out there is no visit to come back to.
    const state: LoginState | undefined = auth.signedOut ? undefined : { from: location };
    return <Navigate to={auth.leaveTo ?? paths.login.getHref()} replace state={state} />;
  }
  return <Outlet />;
}

/** Admin pages: anyone else goes to / (docs/product.md §2.2 Guards). Sits inside RequireAuth. */
export function RequireAdmin() {
  const auth = useAuth();
  if (auth.status === 'loading') return <FullScreenSpinner />;
  if (auth.user?.role !== 'admin') return <Navigate to={paths.home.getHref()} replace />;
  return <Outlet />;
}

/**
 * Sign-in and registration: once a session exists (already, or just now from the form), go on to the page
 * that was asked for, else the dashboard. This is the one place that moves a newly signed-in user.
 */
export function GuestOnly() {
  const auth = useAuth();
  const location = useLocation();
  if (auth.status === 'loading') return <FullScreenSpinner />;
  if (auth.status === 'authenticated') {
    const from = (location.state as LoginState | null)?.from;
    const target = from ? `${from.pathname}${from.search}${from.hash}` : DEFAULT_AFTER_LOGIN;
    return <Navigate to={target} replace />;
  }
  return <Outlet />;
}

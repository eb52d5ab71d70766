import type { ComponentType } from 'react';
import {
  type createBrowserRouter,
  Navigate,
  Outlet,
  ScrollRestoration,
  UNSAFE_createBrowserHistory as createBrowserHistory,
  UNSAFE_createRouter as createRouter,
  UNSAFE_hydrationRouteProperties as hydrationRouteProperties,
  UNSAFE_mapRouteProperties as mapRouteProperties,
  type RouteObject,
} from 'react-router';
import { paths } from '@/config/paths';
import { FullScreenSpinner } from '@/components/ui/spinner';
import { loadMemberTexts } from '@/lib/i18n';
import { GuestOnly, RequireAdmin, RequireAuth } from './guards';
import { RouteError } from './routes/error';

/** Loads a route module (its default export is the screen) only when the route is visited. */
const screen = (load: () => Promise<{ default: ComponentType }>) => async () => ({ Component: (await load()).default });

/**
 * A route that shows the member's screens (their English texts come with the first of them: lib/i18n.ts), loaded
 * together with those texts.
 */
const withMemberTexts =
  <T,>(load: () => Promise<T>) =>
  async () =>
    (await Promise.all([load(), loadMemberTexts()]))[0];

/**
 * The signed-in frame (top bar, sidebar, menus) loads with the first screen that uses it, so the landing and
 * sign-in pages do not carry it (issue 14: the landing page loads only what it renders).
 */
const appLayout = withMemberTexts(async () => ({ Component: (await import('@/features/layout/components/app-layout')).AppLayout }));

function Root() {
  return (
    <>
      <Outlet />
      <ScrollRestoration />
    </>
  );
}

/**
 * The route table of docs/product.md §2.1 Route table. An address that matches nothing is answered by the router with a
 * 404 error response, which the root's errorElement shows as "404 Not Found", like any render failure.
 */
export const routes: RouteObject[] = [
  {
    path: paths.home.path,
    element: <Root />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <FullScreenSpinner />,
    children: [
      { index: true, lazy: screen(() => import('./routes/landing')) },
      {
        element: <GuestOnly />,
        children: [
          { path: paths.login.path, lazy: screen(() => import('./routes/login')) },
          { path: paths.register.path, lazy: screen(() => import('./routes/register')) },
        ],
      },
      { path: paths.forgotPassword.path, lazy: screen(() => import('./routes/forgot-password')) },
      { path: paths.resetPassword.path, lazy: screen(() => import('./routes/reset-password')) },
      { path: paths.unsubscribe.path, lazy: withMemberTexts(screen(() => import('./routes/unsubscribe'))) },
      {
        // Public, with the top bar; the sidebar shows only to a signed-in member.
        lazy: appLayout,
        children: [
          { path: paths.paymentSuccess.path, lazy: screen(() => import('./routes/payment-success')) },
          { path: paths.paymentTimeout.path, lazy: screen(() => import('./routes/payment-timeout')) },
          { path: paths.withdrawalConfirm.path, lazy: screen(() => import('./routes/withdrawal-confirm')) },
        ],
      },
      {
        element: <RequireAuth />,
        children: [
          {
            lazy: appLayout,
            children: [
              { path: paths.dashboard.path, lazy: screen(() => import('./routes/dashboard')) },
              { path: paths.projects.path, lazy: screen(() => import('./routes/projects')) },
              { path: paths.project.path, lazy: screen(() => import('./routes/project')) },
              { path: paths.wallet.path, lazy: screen(() => import('./routes/wallet')) },
              { path: paths.profile.path, lazy: screen(() => import('./routes/profile')) },
              { path: paths.kyc.path, lazy: screen(() => import('./routes/kyc')) },
              {
                element: <RequireAdmin />,
                children: [
                  { path: paths.admin.path, element: <Navigate to={paths.adminDashboard.getHref()} replace /> },
                  { path: paths.adminDashboard.path, lazy: screen(() => import('./routes/admin/dashboard')) },
                  { path: paths.adminUsers.path, lazy: screen(() => import('./routes/admin/users')) },
                  { path: paths.adminUser.path, lazy: screen(() => import('./routes/admin/user')) },
                  { path: paths.adminTransactions.path, lazy: screen(() => import('./routes/admin/transactions')) },
                  { path: paths.adminAudit.path, lazy: screen(() => import('./routes/admin/audit')) },
                  { path: paths.adminMail.path, lazy: screen(() => import('./routes/admin/mail')) },
                  { path: paths.adminProjects.path, lazy: screen(() => import('./routes/admin/projects')) },
                  { path: paths.adminProjectAdd.path, lazy: screen(() => import('./routes/admin/project-add')) },
                  { path: paths.adminProjectEdit.path, lazy: screen(() => import('./routes/admin/project-edit')) },
                ],
              },
            ],
          },
        ],
      },
    ],
  },
];

export type AppRouterInstance = ReturnType<typeof createBrowserRouter>;

/**
 * What `createBrowserRouter(routes)` makes, in two calls: this one builds the router (the route table flattened and
 * ranked, the address matched), and `initialize()` then starts the first navigation (loading the screen's modules).
 * main.tsx runs them in separate tasks, so that neither holds the main thread for long on a slow phone (issue 17);
 * together they are React Router's own createBrowserRouter, from the pieces it exports for that purpose.
 */
export const createAppRouter = (): AppRouterInstance =>
  createRouter({
    history: createBrowserHistory({ window }),
    routes,
    mapRouteProperties,
    hydrationRouteProperties,
  });

/** Resolves once the router has loaded the first address's lazy screen modules, so the first render is the screen. */
export function whenRouterReady(router: AppRouterInstance): Promise<void> {
  return new Promise((resolve) => {
    if (router.state.initialized) return resolve();
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
}

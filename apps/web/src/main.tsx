import { startTransition, StrictMode, useEffect, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from './lib/react-dom-client';
import { AppProvider } from './app/provider';
import { RouterProvider } from 'react-router';
import type { QueryClient } from '@tanstack/react-query';
import { createAppRouter, whenRouterReady, type AppRouterInstance } from './app/router';
import { loadStartupData } from './app/startup-data';
import { createQueryClient } from './lib/query-client';
import './index.css';

// The CSP allows no eval: zod's first object parse would probe `new Function`, and the browser would report a
// CSP violation (Lighthouse: "Issues were logged in the Issues panel"). `jitless` is zod's setting for such
// pages (z.config); zod keeps its settings in this global object, so it is set here without loading zod on
// pages that have no form. The object is shared whichever of the two runs first.
Object.assign(((globalThis as { __zod_globalConfig?: object }).__zod_globalConfig ??= {}), { jitless: true });

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

type HeldAction = { click: HTMLElement } | { form: EventTarget | null; submitter: HTMLElement | null };

declare global {
  interface Window {
    /** Set once the app has rendered (or hydrated) its first screen; index.html holds what was done before. */
    __appReady?: boolean;
    __held?: HeldAction[];
  }
}

/**
 * Marks the app as running once its first screen is committed, and does what the visitor did on the drawn page
 * before (index.html held it): the buttons pressed, in order, and a form sent with Enter. Elements the first
 * render replaced are gone and skipped.
 */
function AppStarted() {
  useEffect(() => {
    window.__appReady = true;
    // The drawn page skipped laying out what was off screen (index.css): the live page is laid out whole, before
    // a held press scrolls to a section by its position.
    document.getElementById('root')?.removeAttribute('data-prerendered');
    const held = window.__held ?? [];
    window.__held = [];
    for (const action of held) {
      if ('click' in action) {
        if (action.click.isConnected) action.click.click();
      } else if (action.form instanceof HTMLFormElement && action.form.isConnected) {
        action.form.requestSubmit(action.submitter ?? undefined);
      }
    }
  }, []);
  return null;
}

/** The app around its router. */
const appWith = (router: AppRouterInstance, queryClient: QueryClient) => (
  <StrictMode>
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
      <AppStarted />
    </AppProvider>
  </StrictMode>
);

// The landing and sign-in pages arrive drawn (scripts/prerender.mjs) as a first-time visitor sees them: no session,
// dark theme. With a stored session the drawn page is hidden (index.html) and replaced instead.
const adoptsDrawnPage = () => root.hasAttribute('data-prerendered') && !document.documentElement.classList.contains('has-session');

// A drawn page is adopted (hydration) once the screen's own module has loaded, instead of drawn again, and a
// remembered light theme follows right after through the stores' server snapshots; any other start draws the app.
// Either way as a transition, so the work yields to the browser every few milliseconds instead of blocking it
// (Total Blocking Time on a slow phone).
const render = (app: ReactNode) => {
  if (adoptsDrawnPage()) {
    startTransition(() => void hydrateRoot(root, app));
    return;
  }
  root.removeAttribute('data-prerendered');
  startTransition(() => createRoot(root).render(app));
};

/**
 * How long a signed-in start waits for the screen's module and first figures before drawing what it has (the
 * spinner, then skeletons): on a good connection they are there long before, and the screen is drawn once.
 */
const STARTUP_WAIT_MS = 1000;

// This task has evaluated the app's modules. The next one starts the screen's queries, the one after builds the
// router, the one after that starts its first navigation, and the app is drawn once the screen's module has loaded:
// none of them holds the main thread for long (issue 17). A drawn page for a first visit is adopted as it is; any
// other start first gathers what the screen shows (app/startup-data.ts), so that the first paint is the screen,
// not a spinner followed by skeletons followed by figures, three renders after it.
const next = () => new Promise((resolve) => setTimeout(resolve));

void next().then(async () => {
  const queryClient = createQueryClient();
  const dataReady = loadStartupData(queryClient, window.location.pathname);
  await next();
  const router = createAppRouter();
  await next();
  router.initialize();
  const app = appWith(router, queryClient);
  const routerReady = whenRouterReady(router);
  if (adoptsDrawnPage()) {
    void routerReady.then(() => render(app));
    return;
  }
  void Promise.race([Promise.all([routerReady, dataReady]), new Promise((resolve) => setTimeout(resolve, STARTUP_WAIT_MS))]).then(() => render(app));
});

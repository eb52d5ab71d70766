import { startTransition, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from './lib/react-dom-client';
import { AppFrame } from './app/app-frame';
import { takeDrawnConfig, watchDrawnPage, type DrawnPage } from './app/drawn-page';
import { RouterProvider } from 'react-router';
import type { QueryClient } from '@tanstack/react-query';
import { createAppRouter, whenRouterReady, type AppRouterInstance } from './app/router';
import { loadStartupData } from './app/startup-data';
import { createQueryClient } from './lib/query-client';
import { preferredLanguage, switchLanguage } from './lib/i18n';
import { isLanguage } from '@terrafund/contracts/i18n';
import './index.css';

// The CSP allows no eval: zod's first object parse would probe `new Function`, and the browser would report a
// CSP violation (Lighthouse: "Issues were logged in the Issues panel"). `jitless` is zod's setting for such
// pages (z.config); zod keeps its settings in this global object, so it is set here without loading zod on
// pages that have no form. The object is shared whichever of the two runs first.
Object.assign(((globalThis as { __zod_globalConfig?: object }).__zod_globalConfig ??= {}), { jitless: true });

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

/** The app around its router (app/app-frame.tsx: the same frame the build draws the drawn pages in). */
const appWith = (router: AppRouterInstance, queryClient: QueryClient, drawnPage?: DrawnPage) => (
  <AppFrame queryClient={queryClient} drawnPage={drawnPage}>
    <RouterProvider router={router} />
  </AppFrame>
);

// The landing and sign-in pages arrive drawn (scripts/prerender.mjs) as a first-time visitor sees them: no session,
// dark theme, in the language the server chose (<html lang>). With a stored session, or another language chosen in
// this browser, the drawn page is hidden (index.html) and replaced instead.
const adoptsDrawnPage = () =>
  root.hasAttribute('data-prerendered') &&
  !document.documentElement.classList.contains('has-session') &&
  !document.documentElement.classList.contains('other-language');

// The language of the first render, its catalogue loaded before it (issue 35): a drawn page's own, so that React
// adopts it as it was drawn; otherwise the one chosen in this browser, else the browser's best match, else English.
const drawnLanguage = document.documentElement.lang;
const languageReady = switchLanguage(adoptsDrawnPage() && isLanguage(drawnLanguage) ? drawnLanguage : preferredLanguage()).catch(
  // The catalogue could not be loaded (the connection dropped): the app starts in English, the fallback.
  (error: unknown) => console.error('Could not load the language', error),
);

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
  const routerReady = whenRouterReady(router);
  if (adoptsDrawnPage()) {
    // The first render must be the drawn one: from the settings the page was sent with, and watching what the
    // visitor does with it until React has taken over (app/drawn-page.ts).
    takeDrawnConfig(root, queryClient);
    const app = appWith(router, queryClient, watchDrawnPage(root));
    void Promise.all([routerReady, languageReady]).then(() => render(app));
    return;
  }
  const app = appWith(router, queryClient);
  const waited = Promise.race([Promise.all([routerReady, dataReady]), new Promise((resolve) => setTimeout(resolve, STARTUP_WAIT_MS))]);
  // The catalogue is not raced: a first render in English, then Spanish, would be two screens.
  void Promise.all([waited, languageReady]).then(() => render(app));
});

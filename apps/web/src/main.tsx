import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { AppProvider } from './app/provider';
import { AppRouter, createAppRouter, whenRouterReady } from './app/router';
import './index.css';

// The CSP allows no eval: zod's first object parse would probe `new Function`, and the browser would report a
// CSP violation (Lighthouse: "Issues were logged in the Issues panel"). `jitless` is zod's setting for such
// pages (z.config); zod keeps its settings in this global object, so it is set here without loading zod on
// pages that have no form. The object is shared whichever of the two runs first.
Object.assign(((globalThis as { __zod_globalConfig?: object }).__zod_globalConfig ??= {}), { jitless: true });

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

const router = createAppRouter();
const app = (
  <StrictMode>
    <AppProvider>
      <AppRouter router={router} />
    </AppProvider>
  </StrictMode>
);

// The landing and sign-in pages arrive drawn (scripts/prerender.mjs) as a first-time visitor sees them: no session,
// dark theme. Once the screen's own module has loaded, React adopts that markup (hydration) instead of drawing the
// page again, and a remembered light theme follows right after through the stores' server snapshots. With a
// stored session the drawn page is hidden (index.html) and replaced. Either way as a transition, so the work
// yields to the browser every few milliseconds instead of blocking it (Total Blocking Time on a slow phone).
// Any other address renders at once and shows the loading spinner meanwhile.
const render = () => {
  if (root.hasAttribute('data-prerendered') && !document.documentElement.classList.contains('has-session')) {
    startTransition(() => void hydrateRoot(root, app));
    return;
  }
  root.removeAttribute('data-prerendered');
  startTransition(() => createRoot(root).render(app));
};

if (root.hasAttribute('data-prerendered')) void whenRouterReady(router).then(render);
else render();

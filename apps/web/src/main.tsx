import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
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
const render = () => {
  root.removeAttribute('data-prerendered');
  // As a transition the first render yields to the browser every few milliseconds instead of holding the main
  // thread for the whole page (Total Blocking Time on a slow phone); the screen still appears in one commit.
  startTransition(() =>
    createRoot(root).render(
      <StrictMode>
        <AppProvider>
          <AppRouter router={router} />
        </AppProvider>
      </StrictMode>,
    ),
  );
};

// The landing and sign-in pages arrive drawn (scripts/prerender.mjs): they stay on screen until the screen's own
// module has loaded, and React then replaces them in one frame with the same page, so nothing flashes or moves.
// Any other address renders at once and shows the loading spinner meanwhile.
if (root.hasAttribute('data-prerendered')) void whenRouterReady(router).then(render);
else render();

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProvider } from './app/provider';
import { AppRouter } from './app/router';
import './index.css';

// The CSP allows no eval: zod's first object parse would probe `new Function`, and the browser would report a
// CSP violation (Lighthouse: "Issues were logged in the Issues panel"). `jitless` is zod's setting for such
// pages (z.config); zod keeps its settings in this global object, so it is set here without loading zod on
// pages that have no form. The object is shared whichever of the two runs first.
Object.assign(((globalThis as { __zod_globalConfig?: object }).__zod_globalConfig ??= {}), { jitless: true });

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

createRoot(root).render(
  <StrictMode>
    <AppProvider>
      <AppRouter />
    </AppProvider>
  </StrictMode>,
);

/**
 * React DOM's client, through a module of its own that the build puts in a chunk of its own (vite.config.ts): React
 * DOM is CommonJS, and its module body (defining the whole renderer, about 200 KB) runs where it is first imported.
 * Imported by main.tsx directly, it ran inside the entry's evaluation, the longest task of a signed-in start; here
 * it runs as a start step of its own (scripts/prerender.mjs, `data-steps`; issue 17: TBT on the dashboard).
 */
export { createRoot, hydrateRoot } from 'react-dom/client';

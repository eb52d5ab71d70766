import { StrictMode, useEffect, useLayoutEffect, type ReactNode } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { AppProvider } from './provider';
import type { DrawnPage } from './drawn-page';

type HeldAction = { click: HTMLElement } | { form: EventTarget | null; submitter: HTMLElement | null };

declare global {
  interface Window {
    /** Set once the app has rendered (or hydrated) its first screen; index.html holds what was done before. */
    __appReady?: boolean;
    __held?: HeldAction[];
  }
}

/**
 * Puts what the visitor typed into a drawn page back when React drew the screen again instead of adopting it
 * (app/drawn-page.ts). A layout effect ahead of the router: it runs in the first commit, once the new fields are in
 * the page and before react-hook-form registers them, which then takes them as edited before it was ready.
 */
function KeepWhatWasTyped({ drawnPage }: { drawnPage?: DrawnPage }) {
  useLayoutEffect(() => drawnPage?.keepWhatWasTyped(), [drawnPage]);
  return null;
}

/**
 * Marks the app as running once its first screen is committed, and does what the visitor did on the drawn page
 * before (index.html held it): the buttons pressed, in order, and a form sent with Enter, on the live elements
 * (the drawn ones, or those standing where they stood when the screen was drawn again).
 */
function AppStarted({ drawnPage }: { drawnPage?: DrawnPage }) {
  useEffect(() => {
    window.__appReady = true;
    // The drawn page skipped laying out what was off screen (index.css): the live page is laid out whole, before
    // a held press scrolls to a section by its position.
    document.getElementById('root')?.removeAttribute('data-prerendered');
    const live = <T extends Element>(element: T) => (element.isConnected ? element : (drawnPage?.live(element) ?? null));
    const held = window.__held ?? [];
    window.__held = [];
    for (const action of held) {
      if ('click' in action) {
        live(action.click)?.click();
      } else if (action.form instanceof HTMLFormElement) {
        const form = live(action.form);
        const submitter = action.submitter && live(action.submitter);
        form?.requestSubmit(submitter && form.contains(submitter) ? submitter : undefined);
      }
    }
  }, [drawnPage]);
  return null;
}

/**
 * The app around its router, the same on both sides: the build draws it (src/prerender.tsx) with a static router
 * and the browser adopts it (main.tsx) with the live one, so the two trees have the same shape and React's ids
 * (useId, which labels and fields share) come out the same.
 */
export function AppFrame({ queryClient, drawnPage, children }: { queryClient: QueryClient; drawnPage?: DrawnPage; children: ReactNode }) {
  return (
    <StrictMode>
      <AppProvider queryClient={queryClient}>
        <KeepWhatWasTyped drawnPage={drawnPage} />
        {children}
        <AppStarted drawnPage={drawnPage} />
      </AppProvider>
    </StrictMode>
  );
}

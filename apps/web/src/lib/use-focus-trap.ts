import { useEffect, useRef, type RefObject } from 'react';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])';

type FocusTrapOptions = {
  /** What takes focus on opening; else the element marked `data-autofocus`, else the first focusable one, else the panel. */
  initialFocus?: RefObject<HTMLElement | null>;
  /** Whether focus goes back, on closing, to whatever had it before. */
  restoreFocus?: boolean;
};

/**
 * Makes the element the returned ref is put on a modal while `open`: it takes focus, Tab and Shift+Tab
 * cycle inside it, Escape calls `onClose`, the page behind does not scroll, and (unless told otherwise)
 * focus goes back where it was when it closes.
 */
export function useFocusTrap<T extends HTMLElement>(open: boolean, onClose: () => void, options: FocusTrapOptions = {}) {
  const panelRef = useRef<T>(null);
  const onCloseRef = useRef(onClose);
  const { initialFocus, restoreFocus = true } = options;

  useEffect(() => {
    onCloseRef.current = onClose;
  }, [onClose]);

  useEffect(() => {
    if (!open) return;
    const previouslyFocused = document.activeElement as HTMLElement | null;
    const panel = panelRef.current;
    (
      initialFocus?.current ??
      panel?.querySelector<HTMLElement>('[data-autofocus]') ??
      panel?.querySelector<HTMLElement>(FOCUSABLE) ??
      panel
    )?.focus();
    const previousOverflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        onCloseRef.current();
        return;
      }
      if (event.key !== 'Tab' || !panel) return;
      const focusable = Array.from(panel.querySelectorAll<HTMLElement>(FOCUSABLE));
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (!first || !last) return;
      // Focus that has left the panel (a click on the page behind cannot land, but a script might) comes back.
      if (!panel.contains(document.activeElement)) {
        event.preventDefault();
        (event.shiftKey ? last : first).focus();
      } else if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.body.style.overflow = previousOverflow;
      if (restoreFocus) previouslyFocused?.focus();
    };
  }, [open, initialFocus, restoreFocus]);

  return panelRef;
}

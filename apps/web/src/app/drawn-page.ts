import type { QueryClient } from '@tanstack/react-query';
import { publicConfigQueryOptions, type ContactConfig } from '@/lib/public-config';

/**
 * What a visitor did with a page drawn at build (scripts/prerender.mjs) before its app ran, kept across the start.
 *
 * React adopts the drawn markup (hydration) and with it the fields as the visitor left them: their values, the focus,
 * the caret; react-hook-form takes a field edited before it was ready as it is. But should the first render differ
 * from the drawn markup anyway, React throws the markup away and draws the screen again, empty: that cost every
 * visitor who typed early on 1 January, when the footer's year stopped matching the build's. So the drawn page is
 * watched from before the app takes over, and when its elements are found gone after the first commit, what was
 * typed, ticked and focused is put into their successors, found where they stood in the drawn page (docs/decisions.md
 * "Web").
 */
export type DrawnPage = {
  /**
   * Run in the first commit, after React has put its elements in the page and before react-hook-form registers them
   * (a layout effect ahead of the router: main.tsx): when the drawn elements were replaced, their successors get
   * the values, ticks, focus and caret the visitor left in them. Nothing happens when React adopted the page.
   */
  keepWhatWasTyped(): void;
  /** The live element where `element` stood in the drawn page: itself when it was adopted, null when none matches. */
  live<T extends Element>(element: T): T | null;
};

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

const isCheckable = (field: Field): field is HTMLInputElement =>
  field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio');

/** Whether the visitor changed the field from what the page was drawn with (the test react-hook-form makes too). */
function edited(field: Field): boolean {
  if (isCheckable(field)) return field.checked !== field.defaultChecked;
  if (field instanceof HTMLSelectElement) return [...field.options].some((option) => option.selected !== option.defaultSelected);
  return field.value !== field.defaultValue;
}

/** Copies the visitor's value (or tick, or choice) from a drawn field into its successor. */
function copyValue(from: Field, to: Field) {
  if (isCheckable(from) && isCheckable(to)) to.checked = from.checked;
  else if (from instanceof HTMLSelectElement && to instanceof HTMLSelectElement) {
    [...to.options].forEach((option, index) => (option.selected = from.options[index]?.selected ?? false));
  } else to.value = from.value;
}

/** The caret and selection of a text field; email and number fields have none to read (they throw or answer null). */
function selectionOf(element: Element): [number, number, 'forward' | 'backward' | 'none'] | null {
  if (!(element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement)) return null;
  try {
    if (element.selectionStart === null || element.selectionEnd === null) return null;
    return [element.selectionStart, element.selectionEnd, element.selectionDirection ?? 'none'];
  } catch {
    return null;
  }
}

export function watchDrawnPage(root: HTMLElement): DrawnPage {
  // References, not copies: a field React removed keeps what it held at that moment, so nothing is read until then
  // (and typing in between is never missed).
  const drawnChildren = [...root.children];
  const fields = [...root.querySelectorAll<Field>('input, textarea, select')];
  let focused: Element | null = root.contains(document.activeElement) ? document.activeElement : null;
  const onFocusIn = (event: FocusEvent) => {
    if (event.target instanceof Element && root.contains(event.target)) focused = event.target;
  };
  // Focus left for nothing (a click on the page's background) is no focus to give back. Checked a task later: a
  // field removed by React may report losing focus while it goes, and then it is the one to give the focus back to.
  const onFocusOut = (event: FocusEvent) => {
    const left = event.target;
    if (event.relatedTarget || left !== focused) return;
    setTimeout(() => {
      if (focused === left && (left as Element).isConnected && !root.contains(document.activeElement)) focused = null;
    });
  };
  document.addEventListener('focusin', onFocusIn, true);
  document.addEventListener('focusout', onFocusOut, true);

  /** Where an element stood in the drawn page: child indices from the root, read while it is still in place or not. */
  function placeOf(element: Element): number[] | null {
    const place: number[] = [];
    let node: Element = element;
    while (node.parentElement && node.parentElement !== root) {
      place.unshift([...node.parentElement.children].indexOf(node));
      node = node.parentElement;
    }
    const top = node.parentElement === root ? [...root.children].indexOf(node) : drawnChildren.indexOf(node);
    if (top < 0) return null;
    place.unshift(top);
    return place;
  }

  function live<T extends Element>(element: T): T | null {
    if (element.isConnected && root.contains(element)) return element;
    const place = placeOf(element);
    let found: Element | undefined = root;
    for (const index of place ?? []) found = found?.children[index];
    const name = element.getAttribute('name');
    if (found && place && found.tagName === element.tagName && found.getAttribute('name') === name) return found as unknown as T;
    // The screen drawn again is laid out differently: a field is still found by its name, or its id.
    const byName = name ? root.querySelector(`${element.tagName}[name="${CSS.escape(name)}"]`) : null;
    const byId = element.id ? document.getElementById(element.id) : null;
    return ((byName ?? (byId && root.contains(byId) ? byId : null)) as T | null) ?? null;
  }

  let done = false;
  return {
    live,
    keepWhatWasTyped() {
      if (done) return;
      done = true;
      document.removeEventListener('focusin', onFocusIn, true);
      document.removeEventListener('focusout', onFocusOut, true);
      const replaced = drawnChildren.some((child) => !child.isConnected);
      if (!replaced) return;
      for (const field of fields) {
        if (field.isConnected || !edited(field)) continue;
        const successor = live(field);
        if (successor) copyValue(field, successor);
      }
      const lost = focused && !focused.isConnected && !root.contains(document.activeElement) ? focused : null;
      const successor = lost && live(lost);
      if (!(successor instanceof HTMLElement)) return;
      successor.focus({ preventScroll: true });
      const selection = selectionOf(lost!);
      if (selection && (successor instanceof HTMLInputElement || successor instanceof HTMLTextAreaElement)) {
        try {
          successor.setSelectionRange(...selection);
        } catch {
          // A field of another kind now (email, number): it keeps the caret the browser gave it, at the end.
        }
      }
    },
  };
}

/**
 * The public settings a drawn page was sent with: the build draws the defaults, and a server with its own contact
 * details writes them into the page, attributes of #root included (apps/api/src/plugins/web.ts). The app starts from
 * these, so its first render is the drawn one on any server, and asks nothing more.
 */
export const DRAWN_CONFIG_ATTRIBUTES = { contactEmail: 'data-contact-email', contactPhone: 'data-contact-phone' } as const;

export function takeDrawnConfig(root: HTMLElement, queryClient: QueryClient) {
  const contactEmail = root.getAttribute(DRAWN_CONFIG_ATTRIBUTES.contactEmail);
  const contactPhone = root.getAttribute(DRAWN_CONFIG_ATTRIBUTES.contactPhone);
  if (contactEmail === null || contactPhone === null) return;
  const config: ContactConfig = { contactEmail, contactPhone };
  queryClient.setQueryData(publicConfigQueryOptions().queryKey, config);
}

import { ModalShell, type ModalProps } from './modal-shell';

/**
 * A side panel over the page, for a task that needs more room than a dialog (the withdraw form): the
 * whole screen on a phone, a column at the right from sm up. Like Dialog, it is a labelled modal dialog:
 * it takes focus when it opens (the element marked `data-autofocus`, else the first focusable one),
 * keeps Tab inside, closes on Escape or a click on the backdrop, and gives focus back when it closes.
 */
export function Sheet(props: ModalProps) {
  return (
    <ModalShell
      {...props}
      placement="fixed inset-0 z-[60] flex justify-end"
      panel={[
        'relative flex h-dvh w-full flex-col bg-white shadow-2xl focus:outline-none sm:max-w-md sm:border-l sm:border-slate-200',
        'dark:bg-slate-900 sm:dark:border-slate-700',
        // Slides in from the right where the browser supports @starting-style, unless motion is reduced.
        'motion-safe:transition-transform motion-safe:duration-200 motion-safe:starting:translate-x-full',
      ].join(' ')}
      body="flex-1 overflow-y-auto px-5 py-5 text-sm text-slate-600 dark:text-slate-300"
      alwaysBody
      headerTextClassName="min-w-0"
    />
  );
}

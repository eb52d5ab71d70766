import { ModalShell, type ModalProps } from './modal-shell';

/**
 * A modal dialog: it takes focus when it opens, keeps Tab inside, closes on Escape or a click on
 * the backdrop, and gives focus back to whatever had it before.
 */
export function Dialog(props: ModalProps) {
  return (
    <ModalShell
      {...props}
      placement="fixed inset-0 z-[60] flex items-end justify-center p-0 sm:items-center sm:p-6"
      panel="relative flex max-h-[90dvh] w-full flex-col overflow-hidden rounded-t-2xl border border-slate-200 bg-white shadow-2xl sm:max-w-lg sm:rounded-2xl dark:border-slate-700 dark:bg-slate-900"
      body="overflow-y-auto px-5 py-4 text-sm text-slate-600 dark:text-slate-300"
    />
  );
}

import { useId, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { cn } from '@/lib/cn';
import { useFocusTrap } from '@/lib/use-focus-trap';
import { ModalBackdrop, ModalFooter, ModalHeader } from './modal-parts';

type DialogProps = {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  className?: string;
};

/**
 * A modal dialog: it takes focus when it opens, keeps Tab inside, closes on Escape or a click on
 * the backdrop, and gives focus back to whatever had it before.
 */
export function Dialog({ open, onClose, title, description, children, footer, className }: DialogProps) {
  const titleId = useId();
  const descriptionId = useId();
  const panelRef = useFocusTrap<HTMLDivElement>(open, onClose);

  if (!open) return null;

  return createPortal(
    <div className="fixed inset-0 z-[60] flex items-end justify-center p-0 sm:items-center sm:p-6">
      <ModalBackdrop onClose={onClose} />
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
        className={cn(
          'relative flex max-h-[90dvh] w-full flex-col overflow-hidden rounded-t-2xl border border-slate-200 bg-white shadow-2xl sm:max-w-lg sm:rounded-2xl',
          'dark:border-slate-700 dark:bg-slate-900',
          className,
        )}
      >
        <ModalHeader titleId={titleId} descriptionId={descriptionId} title={title} description={description} onClose={onClose} />
        {children && <div className="overflow-y-auto px-5 py-4 text-sm text-slate-600 dark:text-slate-300">{children}</div>}
        {footer && <ModalFooter>{footer}</ModalFooter>}
      </div>
    </div>,
    document.body,
  );
}

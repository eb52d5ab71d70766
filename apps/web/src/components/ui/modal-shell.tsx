import { useId, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { cn } from '@/lib/cn';
import { useFocusTrap } from '@/lib/use-focus-trap';
import { ModalBackdrop, ModalFooter, ModalHeader } from './modal-parts';

export type ModalProps = {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  className?: string;
};

type ModalShellProps = ModalProps & {
  /** Where the panel stands over the page. */
  placement: string;
  /** The panel's own look, before the caller's className. */
  panel: string;
  /** The scrolling body's look. */
  body: string;
  /** Whether the body is drawn when it has no content. */
  alwaysBody?: boolean;
  headerTextClassName?: string;
};

/**
 * What Dialog and Sheet share: a labelled modal dialog over a dimmed page, with the focus trap (focus in,
 * Tab kept inside, Escape and the backdrop close it, focus handed back), a header with Close, and a footer.
 */
export function ModalShell({ open, onClose, title, description, children, footer, className, placement, panel, body, alwaysBody, headerTextClassName }: ModalShellProps) {
  const titleId = useId();
  const descriptionId = useId();
  const panelRef = useFocusTrap<HTMLDivElement>(open, onClose);

  if (!open) return null;

  return createPortal(
    <div className={placement}>
      <ModalBackdrop onClose={onClose} />
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
        className={cn(panel, className)}
      >
        <ModalHeader
          titleId={titleId}
          descriptionId={descriptionId}
          title={title}
          description={description}
          onClose={onClose}
          textClassName={headerTextClassName}
        />
        {(alwaysBody || children) && <div className={body}>{children}</div>}
        {footer && <ModalFooter>{footer}</ModalFooter>}
      </div>
    </div>,
    document.body,
  );
}

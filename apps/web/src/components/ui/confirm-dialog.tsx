import type { ReactNode } from 'react';
import { Button } from './button';
import { Dialog } from './dialog';

type ConfirmDialogProps = {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  /** The button that leaves things as they are. */
  keepLabel: ReactNode;
  /** The button that goes ahead, drawn as dangerous. */
  confirmLabel: ReactNode;
  onConfirm: () => void;
  /** Whether the action is under way: the confirm button spins, and the dialog cannot be closed. */
  isPending: boolean;
  children?: ReactNode;
};

/**
 * Asks before an action that cannot be taken back. While the action runs the dialog stays open (Keep, Escape and
 * the backdrop do nothing), so the member sees it through; the caller closes it when the action has settled.
 */
export function ConfirmDialog({ open, onClose, title, description, keepLabel, confirmLabel, onConfirm, isPending, children }: ConfirmDialogProps) {
  const close = () => {
    if (!isPending) onClose();
  };
  return (
    <Dialog
      open={open}
      onClose={close}
      title={title}
      description={description}
      footer={
        <>
          <Button variant="ghost" onClick={close} disabled={isPending}>
            {keepLabel}
          </Button>
          <Button variant="danger" isLoading={isPending} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}

import { useId, type FormEvent, type ReactNode } from 'react';
import { Button, type ButtonVariant } from './button';
import { Dialog } from './dialog';

type FormDialogProps = {
  open: boolean;
  /** Called by Cancel, Escape and the backdrop; a caller that must not be interrupted ignores it while pending. */
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  cancelLabel: ReactNode;
  submitLabel: ReactNode;
  submitVariant: ButtonVariant;
  /** Whether the submit button is off, e.g. while a required field is empty. */
  submitDisabled?: boolean;
  /** Whether the submission is under way: the submit button spins and Cancel is off. */
  isPending: boolean;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** The form's accessible name, where it needs one apart from the dialog's title. */
  formLabel?: string;
  children: ReactNode;
};

/** A dialog whose body is a form, submitted by the button in its footer beside Cancel, so it stays in view. */
export function FormDialog({
  open,
  onClose,
  title,
  description,
  cancelLabel,
  submitLabel,
  submitVariant,
  submitDisabled,
  isPending,
  onSubmit,
  formLabel,
  children,
}: FormDialogProps) {
  const formId = useId();
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title}
      description={description}
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={isPending}>
            {cancelLabel}
          </Button>
          <Button type="submit" form={formId} variant={submitVariant} disabled={submitDisabled} isLoading={isPending}>
            {submitLabel}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={onSubmit} noValidate aria-label={formLabel}>
        {children}
      </form>
    </Dialog>
  );
}

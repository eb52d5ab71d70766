import { useState, type FormEvent } from 'react';
import { FormDialog } from '@/components/ui/form-dialog';
import { NoteField } from '@/components/ui/note-field';
import { useT } from '@/lib/i18n';

export const REJECTION_REASON_MAX_LENGTH = 500;

type RejectKycDialogProps = {
  open: boolean;
  name: string;
  isPending: boolean;
  onClose: () => void;
  onConfirm: (reason: string) => void;
};

/** Asks for the reason the member will read; rejecting without one is not possible (docs/product.md §4.4 Review). */
export function RejectKycDialog({ open, name, isPending, onClose, onConfirm }: RejectKycDialogProps) {
  const [reason, setReason] = useState('');
  const { t } = useT('admin');
  const trimmed = reason.trim();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (trimmed) onConfirm(trimmed);
  };

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={t('users.reject.title')}
      description={t('users.reject.description', { name })}
      cancelLabel={t('users.reject.cancel')}
      submitLabel={t('users.reject.title')}
      submitVariant="danger"
      submitDisabled={!trimmed}
      isPending={isPending}
      onSubmit={submit}
    >
      <NoteField
        label={t('users.reject.reason')}
        hint={t('users.reject.hint')}
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        maxLength={REJECTION_REASON_MAX_LENGTH}
        required
        placeholder={t('users.reject.placeholder')}
      />
    </FormDialog>
  );
}

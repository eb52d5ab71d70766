import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Textarea } from '@/components/ui/textarea';
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
  const formId = useId();
  const fieldId = useId();
  const hintId = useId();
  const trimmed = reason.trim();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (trimmed) onConfirm(trimmed);
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={t('users.reject.title')}
      description={t('users.reject.description', { name })}
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={isPending}>
            {t('users.reject.cancel')}
          </Button>
          <Button type="submit" form={formId} variant="danger" disabled={!trimmed} isLoading={isPending}>
            {t('users.reject.title')}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} noValidate>
        <label htmlFor={fieldId} className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-200">
          {t('users.reject.reason')}
        </label>
        <Textarea
          id={fieldId}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          maxLength={REJECTION_REASON_MAX_LENGTH}
          required
          aria-describedby={hintId}
          placeholder={t('users.reject.placeholder')}
        />
        <div className="mt-1.5 flex justify-between gap-4 text-xs text-slate-500 dark:text-slate-400">
          <p id={hintId}>{t('users.reject.hint')}</p>
          <p className="shrink-0 tabular-nums">
            {reason.length}/{REJECTION_REASON_MAX_LENGTH}
          </p>
        </div>
      </form>
    </Dialog>
  );
}

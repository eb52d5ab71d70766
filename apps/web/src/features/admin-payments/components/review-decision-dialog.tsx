import { useState, type FormEvent } from 'react';
import { messages, REVIEW_NOTE_MAX_LENGTH, type HeldPayment, type ReviewDecision } from '@terrafund/contracts';
import { FormDialog } from '@/components/ui/form-dialog';
import { AlertTriangleIcon } from 'lucide-react';
import { NoteField } from '@/components/ui/note-field';
import { errorMessage, isApiError } from '@/lib/api-client';
import { formatUsd } from '@/lib/format';
import { useDecideHeldPayment } from '../api/decide-held-payment';
import { useT } from '@/lib/i18n';
import { memberName, packLabel, PROVIDER_LABELS, reasonLabel } from './held-payment-labels';

type ReviewDecisionDialogProps = { payment: HeldPayment; decision: ReviewDecision; onClose: () => void };

/**
 * A refusal the server explains (409: another admin decided first; 404) is clearer in its own words; a 5xx or
 * a lost connection is not.
 */
function failureMessage(error: unknown): string {
  const fallback = messages.payments.decideFailed;
  return isApiError(error) && error.status >= 400 && error.status < 500 ? errorMessage(error, fallback) : fallback;
}

/**
 * Asks before an admin decides a held payment, says what the decision will do, and takes an optional note
 * for the record. A refusal is shown here, beside the payment it is about, and the dialog stays open.
 */
export function ReviewDecisionDialog({ payment, decision, onClose }: ReviewDecisionDialogProps) {
  const decide = useDecideHeldPayment();
  const { t, say } = useT('admin');
  const [note, setNote] = useState('');
  const activate = decision === 'activate';
  const name = memberName(payment);
  const pack = packLabel(payment.pack);
  const provider = PROVIDER_LABELS[payment.provider];

  const close = () => {
    if (decide.isPending) return;
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = note.trim();
    decide.mutate({ id: payment._id, decision, ...(trimmed ? { note: trimmed } : {}) }, { onSuccess: onClose });
  };

  const title = activate ? t('payments.decision.activateTitle') : t('payments.decision.rejectTitle');

  return (
    <FormDialog
      open
      onClose={close}
      title={title}
      description={t('payments.decision.summary', { name, pack, amount: formatUsd(payment.amount, 0), reason: reasonLabel(payment.reviewReason) })}
      cancelLabel={t('payments.decision.cancel')}
      submitLabel={title}
      submitVariant={activate ? 'primary' : 'danger'}
      isPending={decide.isPending}
      onSubmit={submit}
      formLabel={title}
    >
      <p className="text-slate-700 dark:text-slate-200">
        {activate
          ? t('payments.decision.activateExplanation', { pack, name })
          : t('payments.decision.rejectExplanation', { name, provider })}
      </p>
      <NoteField
        label={t('payments.decision.note')}
        optional={t('payments.decision.optional')}
        labelClassName="mt-4"
        hint={t('payments.decision.noteHint')}
        value={note}
        onChange={(event) => setNote(event.target.value)}
        maxLength={REVIEW_NOTE_MAX_LENGTH}
        rows={3}
        disabled={decide.isPending}
        placeholder={activate ? t('payments.decision.activatePlaceholder') : t('payments.decision.rejectPlaceholder')}
      />
      {decide.isError && (
        <p role="alert" className="mt-4 flex items-start gap-2 rounded-lg bg-rose-50 p-3 text-sm text-rose-800 dark:bg-rose-500/10 dark:text-rose-200">
          <AlertTriangleIcon className="mt-0.5 h-4 w-4 shrink-0" />
          {say(failureMessage(decide.error))}
        </p>
      )}
    </FormDialog>
  );
}

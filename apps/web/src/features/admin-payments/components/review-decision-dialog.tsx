import { useId, useState, type FormEvent } from 'react';
import { messages, REVIEW_NOTE_MAX_LENGTH, type HeldPayment, type ReviewDecision } from '@terrafund/contracts';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { AlertTriangleIcon } from 'lucide-react';
import { Textarea } from '@/components/ui/textarea';
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
  const formId = useId();
  const noteId = useId();
  const hintId = useId();
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

  return (
    <Dialog
      open
      onClose={close}
      title={activate ? t('payments.decision.activateTitle') : t('payments.decision.rejectTitle')}
      description={t('payments.decision.summary', { name, pack, amount: formatUsd(payment.amount, 0), reason: reasonLabel(payment.reviewReason) })}
      footer={
        <>
          <Button variant="ghost" onClick={close} disabled={decide.isPending}>
            {t('payments.decision.cancel')}
          </Button>
          <Button type="submit" form={formId} variant={activate ? 'primary' : 'danger'} isLoading={decide.isPending}>
            {activate ? t('payments.decision.activateTitle') : t('payments.decision.rejectTitle')}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} noValidate aria-label={activate ? t('payments.decision.activateTitle') : t('payments.decision.rejectTitle')}>
        <p className="text-slate-700 dark:text-slate-200">
          {activate
            ? t('payments.decision.activateExplanation', { pack, name })
            : t('payments.decision.rejectExplanation', { name, provider })}
        </p>
        <label htmlFor={noteId} className="mt-4 mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-200">
          {t('payments.decision.note')} <span className="font-normal text-slate-500 dark:text-slate-400">{t('payments.decision.optional')}</span>
        </label>
        <Textarea
          id={noteId}
          value={note}
          onChange={(event) => setNote(event.target.value)}
          maxLength={REVIEW_NOTE_MAX_LENGTH}
          rows={3}
          disabled={decide.isPending}
          aria-describedby={hintId}
          placeholder={activate ? t('payments.decision.activatePlaceholder') : t('payments.decision.rejectPlaceholder')}
        />
        <div className="mt-1.5 flex justify-between gap-4 text-xs text-slate-500 dark:text-slate-400">
          <p id={hintId}>{t('payments.decision.noteHint')}</p>
          <p className="shrink-0 tabular-nums">
            {note.length}/{REVIEW_NOTE_MAX_LENGTH}
          </p>
        </div>
        {decide.isError && (
          <p role="alert" className="mt-4 flex items-start gap-2 rounded-lg bg-rose-50 p-3 text-sm text-rose-800 dark:bg-rose-500/10 dark:text-rose-200">
            <AlertTriangleIcon className="mt-0.5 h-4 w-4 shrink-0" />
            {say(failureMessage(decide.error))}
          </p>
        )}
      </form>
    </Dialog>
  );
}

import { useId, useState, type FormEvent } from 'react';
import {
  isValidTxHash,
  isWithdrawalAssetId,
  messages,
  withdrawalAsset,
  type AdminTransaction,
  type WithdrawalDecisionBody,
} from '@terrafund/contracts';
import { Button } from '@/components/ui/button';
import { ChevronDownIcon } from 'lucide-react';
import { FieldLabel } from '@/components/ui/field-label';
import { Input, inputClasses } from '@/components/ui/input';
import { isApiError } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { useT } from '@/lib/i18n';
import { useUpdateWithdrawalStatus } from '../api/update-withdrawal-status';

type Decision = WithdrawalDecisionBody['status'];

/** The server's limits (withdrawalDecisionBody); the fields cannot exceed them. */
const TX_HASH_MAX_LENGTH = 200;
const REASON_MAX_LENGTH = 500;

type DecisionOptions = {
  onDecided?: () => void;
  /** PAYOUT_PROVIDER=manual: the admin sends the coins elsewhere and completes with the transaction hash. */
  manual: boolean;
  /** False once this admin has approved it: only a refusal is left to them (a second admin approves). */
  canApprove: boolean;
};

/**
 * The state of a decision on one pending withdrawal (docs/product.md §5.8 Withdrawals). With a payout provider,
 * `completed` is an approval: the provider sends it (a second admin's approval too, above the threshold). With
 * the manual provider it is the completion, which needs the hash of the transfer. `failed` refunds the member,
 * with an optional reason they read on the timeline. It is held by the dialog, whose footer carries the Update
 * button: the button stays in view however far the details scroll.
 */
export function useWithdrawalDecision(
  transaction: AdminTransaction,
  { onDecided, manual, canApprove }: DecisionOptions = { manual: false, canApprove: true },
) {
  const update = useUpdateWithdrawalStatus();
  const [chosen, setStatus] = useState<Decision>('completed');
  const [txHash, setTxHash] = useState('');
  const [reason, setReason] = useState('');
  const [hashError, setHashError] = useState<string | undefined>();
  const formId = useId();
  const status: Decision = canApprove ? chosen : 'failed';
  const assetId = transaction.asset && isWithdrawalAssetId(transaction.asset) ? transaction.asset : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (update.isPending) return;
    const hash = txHash.trim();
    const note = reason.trim();
    if (status === 'completed' && manual) {
      // The manual completion is the only record of the payout: the hash must be one the coin's chain could have.
      const coin = assetId ? withdrawalAsset(assetId).name : undefined;
      const invalid = coin ? messages.withdrawals.invalidTxHash(coin) : messages.withdrawals.txHashInvalid;
      if (!hash || (assetId && !isValidTxHash(assetId, hash))) {
        setHashError(invalid);
        return;
      }
    }
    setHashError(undefined);
    const body: WithdrawalDecisionBody =
      status === 'completed' ? { status, ...(manual && hash ? { txHash: hash } : {}) } : { status, ...(note ? { reason: note } : {}) };
    update.mutate(
      { id: transaction._id, ...body },
      {
        onSuccess: onDecided,
        onError: (error) => {
          if (isApiError(error) && error.fields?.txHash) setHashError(error.fields.txHash);
        },
      },
    );
  };

  return { formId, status, setStatus, txHash, setTxHash, reason, setReason, hashError, submit, isPending: update.isPending, manual, canApprove };
}

export type WithdrawalDecision = ReturnType<typeof useWithdrawalDecision>;

/** The decision and what it needs: the hash of a manual payout, or the reason for a refusal. */
export function WithdrawalStatusForm({ decision }: { decision: WithdrawalDecision }) {
  const { formId, status, setStatus, txHash, setTxHash, reason, setReason, hashError, submit, isPending, manual, canApprove } = decision;
  const statusId = useId();
  const hashId = useId();
  const hashHintId = useId();
  const reasonId = useId();
  const noteId = useId();
  const { t, say } = useT('admin');

  const note =
    status === 'failed'
      ? t('transactions.decision.failNote')
      : manual
        ? t('transactions.decision.manualNote')
        : t('transactions.decision.approveNote');

  return (
    <form
      id={formId}
      onSubmit={submit}
      noValidate
      aria-label={t('transactions.decision.formLabel')}
      className="mt-4 rounded-xl border border-amber-300/70 bg-amber-50/60 p-4 dark:border-amber-400/25 dark:bg-amber-500/5"
    >
      <h3 className="font-semibold text-slate-900 dark:text-white">{t('transactions.decision.title')}</h3>
      <p id={noteId} className="mt-1 text-sm text-slate-600 dark:text-slate-300">
        {note}
      </p>
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        <div>
          <FieldLabel htmlFor={statusId}>{t('transactions.decision.newStatus')}</FieldLabel>
          <div className="relative">
            <select
              id={statusId}
              value={status}
              onChange={(event) => setStatus(event.target.value === 'failed' ? 'failed' : 'completed')}
              disabled={isPending}
              aria-describedby={noteId}
              className={cn(inputClasses, 'cursor-pointer appearance-none pr-10')}
            >
              {canApprove && <option value="completed">{manual ? t('transactions.decision.completed') : t('transactions.decision.approved')}</option>}
              <option value="failed">{t('transactions.decision.failed')}</option>
            </select>
            <ChevronDownIcon className="pointer-events-none absolute top-1/2 right-3.5 h-4 w-4 -translate-y-1/2 text-slate-400" />
          </div>
        </div>
        {status === 'completed' && manual && (
          <div>
            <FieldLabel htmlFor={hashId}>{t('transactions.decision.txHash')}</FieldLabel>
            <Input
              id={hashId}
              value={txHash}
              onChange={(event) => setTxHash(event.target.value)}
              maxLength={TX_HASH_MAX_LENGTH}
              disabled={isPending}
              autoComplete="off"
              spellCheck={false}
              aria-invalid={hashError ? true : undefined}
              aria-describedby={hashHintId}
              className="font-mono"
            />
            <p
              id={hashHintId}
              className={cn('mt-1.5 text-xs', hashError ? 'text-sm text-rose-600 dark:text-rose-400' : 'text-slate-500 dark:text-slate-400')}
            >
              {hashError ? say(hashError) : t('transactions.decision.txHashHint')}
            </p>
          </div>
        )}
        {status === 'failed' && (
          <div>
            <FieldLabel htmlFor={reasonId} optional={t('transactions.decision.optional')}>
              {t('transactions.decision.reason')}
            </FieldLabel>
            <Input
              id={reasonId}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              maxLength={REASON_MAX_LENGTH}
              disabled={isPending}
              autoComplete="off"
            />
          </div>
        )}
      </div>
    </form>
  );
}

/** Submits the decision's form from the dialog's footer. */
export function WithdrawalUpdateButton({ decision }: { decision: WithdrawalDecision }) {
  const { t } = useT('admin');
  return (
    <Button type="submit" form={decision.formId} variant={decision.status === 'failed' ? 'danger' : 'primary'} isLoading={decision.isPending}>
      {t('transactions.decision.update')}
    </Button>
  );
}

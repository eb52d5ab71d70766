import { useId, useState, type FormEvent } from 'react';
import type { AdminTransaction, WithdrawalDecisionBody } from '@terrafund/contracts';
import { Button } from '@/components/ui/button';
import { ChevronDownIcon } from 'lucide-react';
import { Input, inputClasses } from '@/components/ui/input';
import { cn } from '@/lib/cn';
import { useUpdateWithdrawalStatus } from '../api/update-withdrawal-status';

type Decision = WithdrawalDecisionBody['status'];

/** The server's limit on a transaction hash (withdrawalDecisionBody); the field cannot exceed it. */
const TX_HASH_MAX_LENGTH = 200;

/**
 * The state of a decision on one pending withdrawal (docs/product.md §5.8 Withdrawals: completed or failed, default
 * completed). It is held by the dialog, whose footer carries the Update button: the button stays in view
 * however far the details scroll, while the fields sit under the details they depend on.
 */
export function useWithdrawalDecision(transaction: AdminTransaction, { onDecided }: { onDecided?: () => void } = {}) {
  const update = useUpdateWithdrawalStatus();
  const [status, setStatus] = useState<Decision>('completed');
  const [txHash, setTxHash] = useState('');
  const formId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const hash = txHash.trim();
    // A hash belongs to a payout that happened: a failed withdrawal never carries one.
    update.mutate({ id: transaction._id, status, ...(status === 'completed' && hash ? { txHash: hash } : {}) }, { onSuccess: onDecided });
  };

  return { formId, status, setStatus, txHash, setTxHash, submit, isPending: update.isPending };
}

export type WithdrawalDecision = ReturnType<typeof useWithdrawalDecision>;

/** The new status and, for a completed payout, the hash of the transfer that paid it. */
export function WithdrawalStatusForm({ decision }: { decision: WithdrawalDecision }) {
  const { formId, status, setStatus, txHash, setTxHash, submit, isPending } = decision;
  const statusId = useId();
  const hashId = useId();
  const hashHintId = useId();
  const noteId = useId();

  return (
    <form
      id={formId}
      onSubmit={submit}
      noValidate
      aria-label="Update withdrawal status"
      className="mt-4 rounded-xl border border-amber-300/70 bg-amber-50/60 p-4 dark:border-amber-400/25 dark:bg-amber-500/5"
    >
      <h3 className="font-semibold text-slate-900 dark:text-white">Update status</h3>
      <p id={noteId} className="mt-1 text-sm text-slate-600 dark:text-slate-300">
        {status === 'completed'
          ? 'Mark it completed once the funds have been sent to the wallet address.'
          : 'Failing the withdrawal returns the amount to the member’s wallet balance.'}
      </p>
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        <div>
          <label htmlFor={statusId} className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-200">
            New status
          </label>
          <div className="relative">
            <select
              id={statusId}
              value={status}
              onChange={(event) => setStatus(event.target.value === 'failed' ? 'failed' : 'completed')}
              disabled={isPending}
              aria-describedby={noteId}
              className={cn(inputClasses, 'cursor-pointer appearance-none pr-10')}
            >
              <option value="completed">Completed</option>
              <option value="failed">Failed</option>
            </select>
            <ChevronDownIcon className="pointer-events-none absolute top-1/2 right-3.5 h-4 w-4 -translate-y-1/2 text-slate-400" />
          </div>
        </div>
        {status === 'completed' && (
          <div>
            <label htmlFor={hashId} className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-200">
              Transaction hash <span className="font-normal text-slate-500 dark:text-slate-400">(optional)</span>
            </label>
            <Input
              id={hashId}
              value={txHash}
              onChange={(event) => setTxHash(event.target.value)}
              maxLength={TX_HASH_MAX_LENGTH}
              disabled={isPending}
              autoComplete="off"
              spellCheck={false}
              aria-describedby={hashHintId}
              className="font-mono"
            />
            <p id={hashHintId} className="mt-1.5 text-xs text-slate-500 dark:text-slate-400">
              The blockchain transfer that paid the member.
            </p>
          </div>
        )}
      </div>
    </form>
  );
}

/** Submits the decision's form from the dialog's footer. */
export function WithdrawalUpdateButton({ decision }: { decision: WithdrawalDecision }) {
  return (
    <Button type="submit" form={decision.formId} variant={decision.status === 'failed' ? 'danger' : 'primary'} isLoading={decision.isPending}>
      Update
    </Button>
  );
}

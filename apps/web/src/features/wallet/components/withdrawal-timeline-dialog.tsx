import type { TimelineStep } from '@terrafund/contracts';
import { Dialog } from '@/components/ui/dialog';
import { LoadingBlock } from '@/components/ui/load-state';
import { cn } from '@/lib/cn';
import { formatDateTime, formatUsd } from '@/lib/format';
import { useTransaction } from '../api/get-transaction';

const stepLabels: Record<TimelineStep['status'], string> = { requested: 'Requested', completed: 'Completed', failed: 'Failed' };

/** Following a withdrawal: its steps (requested, then completed with the transaction hash, or failed) from the server. */
export function WithdrawalTimelineDialog({ transactionId, onClose }: { transactionId: string | null; onClose: () => void }) {
  const detail = useTransaction(transactionId);
  const transaction = detail.data;

  return (
    <Dialog open={transactionId !== null} onClose={onClose} title="Withdrawal details">
      {detail.isPending ? (
        <LoadingBlock label="Loading the withdrawal" className="py-8" />
      ) : detail.isError || !transaction ? (
        <p role="alert" className="text-sm text-rose-600 dark:text-rose-400">
          Failed to load this withdrawal.
        </p>
      ) : (
        <div className="space-y-4 text-sm">
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
            <dt className="text-slate-500 dark:text-slate-400">Amount</dt>
            <dd className="font-medium text-slate-900 tabular-nums dark:text-white">{formatUsd(transaction.amount)}</dd>
            {transaction.walletAddress && (
              <>
                <dt className="text-slate-500 dark:text-slate-400">To</dt>
                <dd className="font-mono text-xs break-all text-slate-900 dark:text-white">{transaction.walletAddress}</dd>
              </>
            )}
          </dl>
          <ol aria-label="Timeline" className="space-y-3 border-l-2 border-slate-200 pl-4 dark:border-slate-700">
            {(transaction.timeline ?? []).map((step) => (
              <li key={step.status} className="relative">
                <span
                  aria-hidden="true"
                  className={cn(
                    'absolute top-1 -left-[1.4rem] h-3 w-3 rounded-full ring-2 ring-white dark:ring-slate-900',
                    step.status === 'failed' ? 'bg-rose-500' : step.status === 'completed' ? 'bg-emerald-500' : 'bg-amber-400',
                  )}
                />
                <p className="font-medium text-slate-900 dark:text-white">{stepLabels[step.status]}</p>
                <p className="text-xs text-slate-500 dark:text-slate-400">{formatDateTime(step.at)}</p>
                {step.txHash && (
                  <p className="mt-1 text-xs text-slate-600 dark:text-slate-300">
                    Transaction hash: <span className="font-mono break-all">{step.txHash}</span>
                  </p>
                )}
              </li>
            ))}
            {transaction.status === 'pending' && (
              <li className="text-xs text-slate-500 dark:text-slate-400">Waiting for review: you will be notified when it is sent.</li>
            )}
          </ol>
        </div>
      )}
    </Dialog>
  );
}

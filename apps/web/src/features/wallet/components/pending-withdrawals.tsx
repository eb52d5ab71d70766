import { useMemo, useState } from 'react';
import { isWithdrawalAssetId, messages, withdrawalAsset, type Transaction, type WithdrawalStage } from '@terrafund/contracts';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { formatDateTime, formatUsd } from '@/lib/format';
import { useT } from '@/lib/i18n';
import { useCancelWithdrawal } from '../api/cancel-withdrawal';
import { useTransactions } from '../api/get-transactions';
import { assetLabel } from '../utils/withdrawal-form';

/** Until it is handed to the provider, a withdrawal is still the member's to take back (the server decides again). */
const CANCELLABLE: readonly (WithdrawalStage | undefined)[] = ['awaiting_confirmation', 'awaiting_approval', 'waiting_for_provider'];

/** What a pending withdrawal waits for, in the member's words (messages.ts, in English: said again by `say`). */
const stageText = (stage: WithdrawalStage | undefined) =>
  stage ? messages.withdrawals.stageLabels[stage] : messages.withdrawals.stageLabels.awaiting_approval;

const coinOf = (transaction: Transaction) =>
  transaction.asset && isWithdrawalAssetId(transaction.asset) ? assetLabel(withdrawalAsset(transaction.asset)) : undefined;

/** The question before cancelling: what goes back, and that the request is gone. */
function CancelDialog({ withdrawal, onClose }: { withdrawal: Transaction | null; onClose: () => void }) {
  const cancel = useCancelWithdrawal();
  const { t } = useT('wallet');
  return (
    <ConfirmDialog
      open={withdrawal !== null}
      onClose={onClose}
      title={t('pending.dialogTitle')}
      description={withdrawal ? t('pending.dialogText', { amount: formatUsd(withdrawal.amount) }) : undefined}
      keepLabel={t('pending.keep')}
      confirmLabel={t('pending.confirmCancel')}
      isPending={cancel.isPending}
      // A refusal (already sent) is toasted by the global handler; the list is fetched again either way.
      onConfirm={() => withdrawal && cancel.mutate(withdrawal._id, { onSettled: onClose })}
    >
      {withdrawal?.walletAddress && (
        <p>
          {t('pending.to')} <span className="font-mono text-xs break-all text-slate-900 dark:text-white">{withdrawal.walletAddress}</span>
        </p>
      )}
    </ConfirmDialog>
  );
}

/**
 * The member's pending withdrawals above the history, each with what it waits for and, until it is sent, Cancel.
 * Taken from the history's loaded pages (newest first), where a pending withdrawal is near the top.
 */
export function PendingWithdrawals() {
  const transactions = useTransactions();
  const [cancelling, setCancelling] = useState<Transaction | null>(null);
  const { t, say } = useT('wallet');
  const pending = useMemo(() => {
    const seen = new Set<string>();
    return (transactions.data?.pages ?? [])
      .flatMap((page) => page.items)
      .filter((t) => t.type === 'withdrawal' && t.status === 'pending' && !seen.has(t._id) && Boolean(seen.add(t._id)));
  }, [transactions.data]);

  if (pending.length === 0) return null;

  return (
    <Card>
      <section aria-labelledby="pending-withdrawals-title">
        <h2 id="pending-withdrawals-title" className="border-b border-slate-200 px-5 py-4 font-semibold text-slate-900 dark:border-slate-800 dark:text-white">
          {t('pending.title')}
        </h2>
        <ul aria-label={t('pending.title')} className="divide-y divide-slate-200 dark:divide-slate-800">
          {pending.map((withdrawal) => {
            const coin = coinOf(withdrawal);
            return (
              <li key={withdrawal._id} className="flex flex-wrap items-center gap-3 px-5 py-3">
                <div className="min-w-0 flex-1">
                  <p className="font-medium text-slate-900 tabular-nums dark:text-white">
                    {formatUsd(withdrawal.amount)}
                    {coin && <span className="font-normal text-slate-500 dark:text-slate-400"> · {coin}</span>}
                  </p>
                  {withdrawal.walletAddress && (
                    <p className="truncate font-mono text-xs text-slate-500 dark:text-slate-400" title={withdrawal.walletAddress}>
                      {withdrawal.walletAddress}
                    </p>
                  )}
                  <p className="text-xs text-slate-500 dark:text-slate-400">{t('pending.requested', { date: formatDateTime(withdrawal.date) })}</p>
                </div>
                <Badge tone={withdrawal.stage === 'awaiting_confirmation' ? 'info' : 'warning'}>{say(stageText(withdrawal.stage))}</Badge>
                {CANCELLABLE.includes(withdrawal.stage) && (
                  <Button
                    variant="outline"
                    size="sm"
                    onClick={() => setCancelling(withdrawal)}
                    aria-label={t('pending.cancelLabel', { amount: formatUsd(withdrawal.amount), date: formatDateTime(withdrawal.date) })}
                  >
                    {t('pending.cancel')}
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      </section>
      <CancelDialog withdrawal={cancelling} onClose={() => setCancelling(null)} />
    </Card>
  );
}

import { explorerTxUrl, isWithdrawalAssetId, messages, withdrawalAsset, type TimelineStep } from '@terrafund/contracts';
import type { ReactNode } from 'react';
import { ExternalLinkIcon } from 'lucide-react';
import { Dialog } from '@/components/ui/dialog';
import { LoadingBlock } from '@/components/ui/load-state';
import { cn } from '@/lib/cn';
import { formatDateTime, formatUsd } from '@/lib/format';
import { useT } from '@/lib/i18n';
import { useTransaction } from '../api/get-transaction';
import { assetLabel } from '../utils/withdrawal-form';

const dotColour = (status: TimelineStep['status']) =>
  status === 'failed' || status === 'cancelled' ? 'bg-rose-500' : status === 'completed' ? 'bg-emerald-500' : 'bg-amber-400';

/** A label over a value in the dialog's summary. */
function Row({ term, children, mono = false }: { term: string; children: ReactNode; mono?: boolean }) {
  return (
    <>
      <dt className="text-slate-500 dark:text-slate-400">{term}</dt>
      <dd className={cn('text-slate-900 dark:text-white', mono ? 'font-mono text-xs break-all' : 'font-medium tabular-nums')}>{children}</dd>
    </>
  );
}

/**
 * Following a withdrawal: the coin and what arrives, then its steps from the server (requested, confirmed, one
 * approval per admin, sent, then completed with the transaction hash and its explorer link, or failed / cancelled
 * with the reason), and while it is pending, what it is waiting for.
 */
export function WithdrawalTimelineDialog({ transactionId, onClose }: { transactionId: string | null; onClose: () => void }) {
  const detail = useTransaction(transactionId);
  const { t, say } = useT('wallet');
  const transaction = detail.data;
  const assetId = transaction?.asset && isWithdrawalAssetId(transaction.asset) ? transaction.asset : undefined;
  const coin = assetId ? withdrawalAsset(assetId) : undefined;

  return (
    <Dialog open={transactionId !== null} onClose={onClose} title={t('timeline.title')}>
      {detail.isPending ? (
        <LoadingBlock label={t('timeline.loading')} className="py-8" />
      ) : detail.isError || !transaction ? (
        <p role="alert" className="text-sm text-rose-600 dark:text-rose-400">
          {t('timeline.failed')}
        </p>
      ) : (
        <div className="space-y-4 text-sm">
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
            <Row term={t('timeline.amount')}>{formatUsd(transaction.amount)}</Row>
            {transaction.fee !== undefined && <Row term={t('timeline.fee')}>{formatUsd(transaction.fee)}</Row>}
            {transaction.receiveAmount !== undefined && <Row term={t('timeline.receive')}>{formatUsd(transaction.receiveAmount)}</Row>}
            {coin && <Row term={t('timeline.coin')}>{assetLabel(coin)}</Row>}
            {transaction.walletAddress && (
              <Row term={t('timeline.to')} mono>
                {transaction.walletAddress}
              </Row>
            )}
          </dl>
          <ol aria-label={t('timeline.label')} className="space-y-3 border-l-2 border-slate-200 pl-4 dark:border-slate-700">
            {(transaction.timeline ?? []).map((step, index) => (
              <li key={`${step.status}-${index}`} className="relative">
                <span
                  aria-hidden="true"
                  className={cn('absolute top-1 -left-[1.4rem] h-3 w-3 rounded-full ring-2 ring-white dark:ring-slate-900', dotColour(step.status))}
                />
                <p className="font-medium text-slate-900 dark:text-white">{t(`timeline.steps.${step.status}`)}</p>
                <p className="text-xs text-slate-500 dark:text-slate-400">{formatDateTime(step.at)}</p>
                {step.reason && <p className="mt-1 text-xs text-slate-600 dark:text-slate-300">{say(step.reason)}</p>}
                {step.txHash && (
                  <p className="mt-1 text-xs text-slate-600 dark:text-slate-300">
                    {t('timeline.txHash')} <span className="font-mono break-all">{step.txHash}</span>
                    {assetId && (
                      <a
                        href={explorerTxUrl(assetId, step.txHash)}
                        target="_blank"
                        rel="noreferrer noopener"
                        className="mt-1 flex min-h-11 items-center gap-1 font-medium text-emerald-700 hover:underline sm:min-h-0 dark:text-emerald-400"
                      >
                        {t('timeline.explorer')}
                        <ExternalLinkIcon aria-hidden="true" className="h-3.5 w-3.5" />
                        <span className="sr-only">{t('timeline.newTab')}</span>
                      </a>
                    )}
                  </p>
                )}
              </li>
            ))}
            {transaction.status === 'pending' && (
              <li className="text-xs text-slate-500 dark:text-slate-400">
                {transaction.stage === 'awaiting_confirmation'
                  ? t('timeline.awaitingConfirmation')
                  : transaction.stage === 'sent'
                    ? t('timeline.sent')
                    : transaction.stage === 'waiting_for_provider'
                      ? t('timeline.waitingForProvider', { waiting: say(messages.withdrawals.waitingForProvider) })
                      : t('timeline.inReview')}
              </li>
            )}
          </ol>
        </div>
      )}
    </Dialog>
  );
}

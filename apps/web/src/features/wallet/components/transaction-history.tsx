import { useMemo, useState } from 'react';
import { messages } from '@terrafund/contracts';
import { capitalize, TransactionAmount, TransactionStatusBadge } from '@/components/money/transaction-cells';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ListBody } from '@/components/ui/list-body';
import { EmptyState } from '@/components/ui/empty-state';
import { ArrowLeftRightIcon } from 'lucide-react';
import { Table, TBody, Td, Th, THead } from '@/components/ui/table';
import { formatDate } from '@/lib/format';
import { useT } from '@/lib/i18n';
import { useTransactions } from '../api/get-transactions';
import { StatementDownload } from './statement-download';
import { WithdrawalTimelineDialog } from './withdrawal-timeline-dialog';

/**
 * The member's Transaction History (docs/product.md §2.1 Route table): Date, Type, Amount, Status; deposits and payouts
 * with + in green, the rest with − in red; pending with a clock icon. The first page (50, newest first) and
 * **Load more**, which appends the next page until the server names none: every transaction is reachable.
 */
export function TransactionHistory() {
  const transactions = useTransactions();
  const { t, say } = useT('wallet');
  const [following, setFollowing] = useState<string | null>(null);
  const rows = useMemo(() => {
    // A page fetched again after a new transaction can overlap the one before it: each row shows once.
    const seen = new Set<string>();
    return (transactions.data?.pages ?? []).flatMap((page) => page.items).filter((t) => !seen.has(t._id) && Boolean(seen.add(t._id)));
  }, [transactions.data]);

  const body = (
    <ListBody
      query={transactions}
      isEmpty={rows.length === 0}
      // A later page that failed leaves the rows already loaded in view, with its own message under them.
      failed={transactions.isError && rows.length === 0}
      loadingLabel={t('history.loading')}
      loadingClassName="py-12"
      compactFailure
      failedTitle={say(messages.wallet.transactionsFailed)}
      empty={<EmptyState icon={<ArrowLeftRightIcon className="h-5 w-5" />} title={t('history.empty')} />}
    >
      {/* On a phone the date moves under the type, so the amount and status stay in view without scrolling. */}
      <Table caption={t('history.title')} minWidth="min-w-0">
        <THead>
          <Th className="hidden sm:table-cell">{t('history.date')}</Th>
          <Th className="px-3 sm:px-5">{t('history.type')}</Th>
          <Th className="px-3 sm:px-5">{t('history.amount')}</Th>
          <Th className="px-3 sm:px-5">{t('history.status')}</Th>
        </THead>
        <TBody>
          {rows.map((transaction) => (
            <tr key={transaction._id}>
              <Td className="hidden whitespace-nowrap text-slate-600 sm:table-cell dark:text-slate-300">{formatDate(transaction.date)}</Td>
              <Td className="px-3 sm:px-5">
                <span className="font-medium text-slate-900 dark:text-white">{t(`transactionTypes.${transaction.type}`, { defaultValue: capitalize(transaction.type) })}</span>
                <span className="block text-xs whitespace-nowrap text-slate-500 sm:hidden dark:text-slate-400" aria-hidden="true">
                  {formatDate(transaction.date)}
                </span>
                {transaction.description && (
                  <span
                    className="hidden max-w-xs truncate text-xs text-slate-500 sm:block dark:text-slate-400"
                    title={transaction.description}
                  >
                    {transaction.description}
                  </span>
                )}
              </Td>
              <Td className="px-3 whitespace-nowrap sm:px-5">
                <TransactionAmount type={transaction.type} amount={transaction.amount} status={transaction.status} />
              </Td>
              <Td className="px-3 sm:px-5">
                {transaction.type === 'withdrawal' ? (
                  // A withdrawal's status opens its timeline (requested, then completed or failed).
                  <button
                    type="button"
                    onClick={() => setFollowing(transaction._id)}
                    aria-label={t('history.track', { date: formatDate(transaction.date), status: t(`history.statuses.${transaction.status}`, { defaultValue: transaction.status }) })}
                    title={t('history.trackTitle')}
                    className="rounded-full hover:opacity-80 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-500"
                  >
                    <TransactionStatusBadge status={transaction.status} />
                  </button>
                ) : (
                  <TransactionStatusBadge status={transaction.status} />
                )}
              </Td>
            </tr>
          ))}
        </TBody>
      </Table>
    </ListBody>
  );

  return (
    <Card className="min-w-0">
      <section aria-labelledby="transaction-history-title">
        <div className="flex flex-wrap items-end justify-between gap-3 border-b border-slate-200 px-5 py-4 dark:border-slate-800">
          <h2 id="transaction-history-title" className="font-semibold text-slate-900 dark:text-white">
            {t('history.title')}
          </h2>
          <StatementDownload />
        </div>
        {body}
        {transactions.hasNextPage && rows.length > 0 && (
          <div className="flex flex-col items-center gap-2 border-t border-slate-200 px-5 py-4 dark:border-slate-800">
            {transactions.isFetchNextPageError && (
              <p role="alert" className="text-sm text-red-600 dark:text-red-400">
                {say(messages.wallet.transactionsFailed)}
              </p>
            )}
            <Button variant="outline" isLoading={transactions.isFetchingNextPage} onClick={() => void transactions.fetchNextPage()}>
              {t('history.loadMore')}
            </Button>
          </div>
        )}
        <WithdrawalTimelineDialog transactionId={following} onClose={() => setFollowing(null)} />
      </section>
    </Card>
  );
}

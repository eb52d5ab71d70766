import type { AdminTransaction } from '@terrafund/contracts';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadFailed } from '@/components/ui/load-state';
import { ArrowLeftRightIcon, ChevronRightIcon } from 'lucide-react';
import { TextLink } from '@/components/ui/text-link';
import { AdminTransactionCells, type AdminTransactionCellClasses } from '@/components/money/transaction-cells';
import { paths } from '@/config/paths';
import { StackingTable } from '@/components/ui/stacking-table';
import { cn } from '@/lib/cn';
import { useT } from '@/lib/i18n';
import { useRecentTransactions } from '../api/get-recent-transactions';

const SKELETON_ROWS = 5;

// Below md each row is a card: the member on top, then type, amount, status and date side by side, so
// that on a phone the amount and status are seen without scrolling sideways.
const td = 'md:table-cell md:px-5 md:py-3 md:align-middle';
const row = 'flex flex-wrap items-center gap-x-3 gap-y-2 px-4 py-4 sm:px-5 md:table-row md:p-0';
const cells: AdminTransactionCellClasses = {
  cell: td,
  member: 'w-full min-w-0 md:w-auto',
  memberLines: 'min-w-0 md:max-w-64',
  type: 'text-slate-700 dark:text-slate-200',
  date: 'whitespace-nowrap text-slate-600 dark:text-slate-300',
};

function SkeletonRows() {
  return Array.from({ length: SKELETON_ROWS }, (_, index) => (
    <tr key={index} aria-hidden="true" className={row}>
      <td className={cn(td, 'w-full md:w-auto')}>
        <div className="animate-pulse space-y-2">
          <div className="h-4 w-32 rounded bg-slate-200 dark:bg-slate-800" />
          <div className="h-3 w-40 rounded bg-slate-200 dark:bg-slate-800" />
        </div>
      </td>
      {['w-16', 'w-14', 'w-20', 'w-24'].map((width) => (
        <td key={width} className={td}>
          <div className={cn('h-4 animate-pulse rounded bg-slate-200 dark:bg-slate-800', width)} />
        </td>
      ))}
    </tr>
  ));
}

function TransactionRow({ transaction }: { transaction: AdminTransaction }) {
  return (
    <tr className={row}>
      <AdminTransactionCells transaction={transaction} classes={cells} />
    </tr>
  );
}

/** The 10 latest transactions of the platform: who, what, how much, where it stands and when. */
export function RecentTransactions() {
  const recent = useRecentTransactions();
  const { t } = useT('admin');
  const failed = recent.isError && !recent.data;

  return (
    <Card className="overflow-hidden">
      <div className="flex items-center justify-between gap-3 border-b border-slate-200 px-4 py-4 sm:px-5 dark:border-slate-800">
        <h2 className="font-semibold text-slate-900 dark:text-white">{t('dashboard.recent.title')}</h2>
        <TextLink to={paths.adminTransactions.getHref()} className="inline-flex items-center gap-1 text-sm">
          {t('dashboard.recent.viewAll')}
          <ChevronRightIcon className="h-4 w-4" />
        </TextLink>
      </div>
      {failed ? (
        <LoadFailed
          title={t('dashboard.recent.failedTitle')}
          description={t('dashboard.recent.failedDescription')}
          query={recent}
        />
      ) : recent.data?.length === 0 ? (
        <EmptyState icon={<ArrowLeftRightIcon className="h-5 w-5" />} title={t('dashboard.recent.empty')} />
      ) : (
        <StackingTable caption={t('dashboard.recent.title')} columns={[t('dashboard.recent.columns.user'), t('dashboard.recent.columns.type'), t('dashboard.recent.columns.amount'), t('dashboard.recent.columns.status'), t('dashboard.recent.columns.date')]} from="md" busy={recent.isPending} headerPadding="px-5">
          {recent.data ? (
            recent.data.map((transaction) => <TransactionRow key={transaction._id} transaction={transaction} />)
          ) : (
            <SkeletonRows />
          )}
        </StackingTable>
      )}
    </Card>
  );
}

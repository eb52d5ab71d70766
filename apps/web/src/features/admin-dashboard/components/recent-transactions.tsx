import { TitleLines } from '@/components/ui/title-lines';
import type { AdminTransaction } from '@terrafund/contracts';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadFailed } from '@/components/ui/load-state';
import { ArrowLeftRightIcon, ChevronRightIcon } from 'lucide-react';
import { TextLink } from '@/components/ui/text-link';
import { TransactionAmount, TransactionDate, TransactionStatusBadge, capitalize } from '@/components/money/transaction-cells';
import { paths } from '@/config/paths';
import { StackingTable } from '@/components/ui/stacking-table';
import { cn } from '@/lib/cn';
import { useRecentTransactions } from '../api/get-recent-transactions';

const SKELETON_ROWS = 5;

// Below md each row is a card: the member on top, then type, amount, status and date side by side, so
// that on a phone the amount and status are seen without scrolling sideways.
const td = 'md:table-cell md:px-5 md:py-3 md:align-middle';
const row = 'flex flex-wrap items-center gap-x-3 gap-y-2 px-4 py-4 sm:px-5 md:table-row md:p-0';

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
  const { user } = transaction;
  const name = `${user.firstName} ${user.lastName}`;
  return (
    <tr className={row}>
      <td className={cn(td, 'w-full min-w-0 md:w-auto')}>
        <TitleLines title={name} detail={user.email} className="min-w-0 md:max-w-64" />
      </td>
      <td className={cn(td, 'text-slate-700 dark:text-slate-200')}>{capitalize(transaction.type)}</td>
      <td className={td}>
        <TransactionAmount type={transaction.type} amount={transaction.amount} status={transaction.status} decimals={0} />
      </td>
      <td className={td}>
        <TransactionStatusBadge status={transaction.status} />
      </td>
      <td className={cn(td, 'whitespace-nowrap text-slate-600 dark:text-slate-300')}>
        <TransactionDate date={transaction.date} />
      </td>
    </tr>
  );
}

/** The 10 latest transactions of the platform: who, what, how much, where it stands and when. */
export function RecentTransactions() {
  const recent = useRecentTransactions();
  const failed = recent.isError && !recent.data;

  return (
    <Card className="overflow-hidden">
      <div className="flex items-center justify-between gap-3 border-b border-slate-200 px-4 py-4 sm:px-5 dark:border-slate-800">
        <h2 className="font-semibold text-slate-900 dark:text-white">Recent transactions</h2>
        <TextLink to={paths.adminTransactions.getHref()} className="inline-flex items-center gap-1 text-sm">
          View all
          <ChevronRightIcon className="h-4 w-4" />
        </TextLink>
      </div>
      {failed ? (
        <LoadFailed
          title="Recent transactions unavailable"
          description="The latest transactions could not be loaded."
          query={recent}
        />
      ) : recent.data?.length === 0 ? (
        <EmptyState icon={<ArrowLeftRightIcon className="h-5 w-5" />} title="No transactions yet" />
      ) : (
        <StackingTable caption="Recent transactions" columns={['User', 'Type', 'Amount', 'Status', 'Date']} from="md" busy={recent.isPending} headerPadding="px-5">
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

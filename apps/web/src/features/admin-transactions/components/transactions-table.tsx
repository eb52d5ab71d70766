import { TitleLines } from '@/components/ui/title-lines';
import type { MouseEvent } from 'react';
import type { AdminTransaction } from '@terrafund/contracts';
import { Button } from '@/components/ui/button';
import { ChevronRightIcon } from 'lucide-react';
import { TransactionAmount, TransactionDate, TransactionStatusBadge, capitalize } from '@/components/money/transaction-cells';
import { StackingTable } from '@/components/ui/stacking-table';
import { cn } from '@/lib/cn';
import { shortId } from '@/lib/format';
import { CopyButton } from './copy-button';
import { awaitsDecision, memberName } from './transaction-fields';

// Below xl (where the sidebar leaves too little room for seven columns) each row is a card whose cells
// flow as wrapped items instead of columns.
const td = 'xl:table-cell xl:px-4 xl:py-3 xl:align-middle';

type TransactionsTableProps = {
  transactions: AdminTransaction[];
  caption: string;
  onOpen: (transaction: AdminTransaction) => void;
};

/**
 * Transactions with their members. From xl up a table; below it every row stacks into a card (member and
 * action, then type, amount and status, then id and date) so that nothing scrolls sideways on a phone.
 * A click anywhere on a row opens its details; the row's button does the same from the keyboard.
 */
export function TransactionsTable({ transactions, caption, onOpen }: TransactionsTableProps) {
  return (
    <StackingTable caption={caption} columns={['ID', 'User', 'Type', 'Amount', 'Status', 'Date', <span className="sr-only">Actions</span>]} actions from="xl">
      {transactions.map((transaction) => (
        <TransactionRow key={transaction._id} transaction={transaction} onOpen={onOpen} />
      ))}
    </StackingTable>
  );
}

function TransactionRow({ transaction, onOpen }: { transaction: AdminTransaction; onOpen: (transaction: AdminTransaction) => void }) {
  const name = memberName(transaction);
  const id = shortId(transaction._id);
  const review = awaitsDecision(transaction);

  const openFromRow = (event: MouseEvent) => {
    // Selecting text (an e-mail to copy) is not a request to open the row.
    if (window.getSelection()?.toString()) return;
    if ((event.target as HTMLElement).closest('button, a')) return;
    onOpen(transaction);
  };

  return (
    <tr
      onClick={openFromRow}
      className="relative flex cursor-pointer flex-wrap items-center gap-x-3 gap-y-2 px-4 py-4 transition-colors hover:bg-slate-50 sm:px-5 xl:table-row xl:p-0 dark:hover:bg-slate-800/40"
    >
      <td className={cn(td, 'order-last flex items-center gap-1 xl:order-none xl:whitespace-nowrap')}>
        <span className="text-slate-500 xl:hidden dark:text-slate-400">ID</span>
        <span title={transaction._id} className="font-mono text-xs text-slate-600 dark:text-slate-300">
          {id}
        </span>
        <CopyButton value={transaction._id} label={`Copy transaction ID ${id}`} />
      </td>
      <td className={cn(td, 'order-first w-full min-w-0 pr-28 xl:order-none xl:w-auto xl:pr-4')}>
        <TitleLines title={name} detail={transaction.user.email} className="min-w-0 xl:max-w-64 2xl:max-w-xs" />
      </td>
      <td className={cn(td, 'font-medium text-slate-700 dark:text-slate-200')}>{capitalize(transaction.type)}</td>
      <td className={td}>
        <TransactionAmount type={transaction.type} amount={transaction.amount} status={transaction.status} decimals={0} />
      </td>
      <td className={td}>
        <TransactionStatusBadge status={transaction.status} />
      </td>
      <td className={cn(td, 'order-last text-slate-600 xl:order-none xl:whitespace-nowrap dark:text-slate-300')}>
        <TransactionDate date={transaction.date} />
      </td>
      {/* On a card the action sits at the top right, beside the member. */}
      <td className={cn(td, 'absolute top-4 right-4 sm:right-5 xl:static xl:text-right')}>
        <Button
          variant={review ? 'primary' : 'outline'}
          size="sm"
          className="pr-2"
          aria-label={`${review ? 'Review' : 'View'} transaction ${id}`}
          onClick={() => onOpen(transaction)}
        >
          {review ? 'Review' : 'View'}
          <ChevronRightIcon className="h-4 w-4" />
        </Button>
      </td>
    </tr>
  );
}

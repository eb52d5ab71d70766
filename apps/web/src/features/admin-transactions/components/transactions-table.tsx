import type { MouseEvent } from 'react';
import type { AdminTransaction } from '@terrafund/contracts';
import { Button } from '@/components/ui/button';
import { ChevronRightIcon } from 'lucide-react';
import { AdminTransactionCells, type AdminTransactionCellClasses } from '@/components/money/transaction-cells';
import { StackingTable } from '@/components/ui/stacking-table';
import { cn } from '@/lib/cn';
import { shortId } from '@/lib/format';
import { useT } from '@/lib/i18n';
import { CopyButton } from './copy-button';
import { awaitsDecision } from './transaction-fields';

// Below xl (where the sidebar leaves too little room for seven columns) each row is a card whose cells
// flow as wrapped items instead of columns.
const td = 'xl:table-cell xl:px-4 xl:py-3 xl:align-middle';
// On a card the member comes first (leaving room for the action at the top right), the date last, beside the id.
const cells: AdminTransactionCellClasses = {
  cell: td,
  member: 'order-first w-full min-w-0 pr-28 xl:order-none xl:w-auto xl:pr-4',
  memberLines: 'min-w-0 xl:max-w-64 2xl:max-w-xs',
  type: 'font-medium text-slate-700 dark:text-slate-200',
  date: 'order-last text-slate-600 xl:order-none xl:whitespace-nowrap dark:text-slate-300',
};

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
  const { t } = useT('admin');
  const columns = [
    t('transactions.table.id'),
    t('transactions.table.user'),
    t('transactions.table.type'),
    t('transactions.table.amount'),
    t('transactions.table.status'),
    t('transactions.table.date'),
    <span className="sr-only">{t('transactions.table.actions')}</span>,
  ];
  return (
    <StackingTable caption={caption} columns={columns} actions from="xl">
      {transactions.map((transaction) => (
        <TransactionRow key={transaction._id} transaction={transaction} onOpen={onOpen} />
      ))}
    </StackingTable>
  );
}

function TransactionRow({ transaction, onOpen }: { transaction: AdminTransaction; onOpen: (transaction: AdminTransaction) => void }) {
  const id = shortId(transaction._id);
  const review = awaitsDecision(transaction);
  const { t } = useT('admin');

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
        <span className="text-slate-500 xl:hidden dark:text-slate-400">{t('transactions.table.id')}</span>
        <span title={transaction._id} className="font-mono text-xs text-slate-600 dark:text-slate-300">
          {id}
        </span>
        <CopyButton value={transaction._id} label={t('transactions.table.copyId', { id })} />
      </td>
      <AdminTransactionCells transaction={transaction} classes={cells} />
      {/* On a card the action sits at the top right, beside the member. */}
      <td className={cn(td, 'absolute top-4 right-4 sm:right-5 xl:static xl:text-right')}>
        <Button
          variant={review ? 'primary' : 'outline'}
          size="sm"
          className="pr-2"
          aria-label={review ? t('transactions.table.reviewLabel', { id }) : t('transactions.table.viewLabel', { id })}
          onClick={() => onOpen(transaction)}
        >
          {review ? t('transactions.table.review') : t('transactions.table.view')}
          <ChevronRightIcon className="h-4 w-4" />
        </Button>
      </td>
    </tr>
  );
}

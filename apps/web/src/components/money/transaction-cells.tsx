import type { AdminTransaction, TransactionStatus, TransactionType } from '@terrafund/contracts';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { ClockIcon } from 'lucide-react';
import { TitleLines } from '@/components/ui/title-lines';
import { cn } from '@/lib/cn';
import { formatDate, formatDateTime, formatUsd } from '@/lib/format';
import { useT } from '@/lib/i18n';

const statusTones: Record<string, BadgeTone> = { completed: 'success', pending: 'warning', failed: 'danger' };
export const capitalize = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);

/** Money in (spec: deposit and payout) shows with + in green; everything else with − in red. */
export const isIncoming = (type: TransactionType | string) => type === 'deposit' || type === 'payout';

/** A transaction's status as a coloured pill; a pending one carries a clock icon (spec: Wallet). */
export function TransactionStatusBadge({ status }: { status: TransactionStatus | string }) {
  const { t } = useT();
  return (
    <Badge tone={statusTones[status] ?? 'neutral'}>
      {status === 'pending' && <ClockIcon className="h-3.5 w-3.5" aria-hidden="true" />}
      {t(`status.${status}`, { defaultValue: capitalize(status) })}
    </Badge>
  );
}

/** The signed, coloured amount of a transaction. `decimals`: 2 on the wallet, 0 in admin views (docs/product.md §7.4 Transactions and withdrawal decisions). */
export function TransactionAmount({
  type,
  amount,
  status,
  decimals = 2,
}: {
  type: TransactionType | string;
  amount: number;
  status?: string;
  decimals?: 0 | 2;
}) {
  const incoming = isIncoming(type);
  // A failed movement keeps the spec's sign and colour, struck through: no money arrived or left (its status
  // cell says Failed in words). Not faded: the amount keeps its 4.5:1 contrast.
  const failed = status === 'failed';
  return (
    <span
      className={cn(
        'font-medium whitespace-nowrap tabular-nums',
        incoming ? 'text-emerald-600 dark:text-emerald-400' : 'text-rose-600 dark:text-rose-400',
        failed && 'line-through',
      )}
    >
      {incoming ? '+' : '-'}
      {formatUsd(amount, decimals)}
    </span>
  );
}

/** A transaction's day, with the full date and time on hover. */
export function TransactionDate({ date }: { date: string }) {
  return (
    <time dateTime={date} title={formatDateTime(date)}>
      {formatDate(date)}
    </time>
  );
}

/**
 * The classes a table lays these cells out with. Each table stacks its rows into cards below its own breakpoint
 * (the dashboard's at md, the transactions screen's at xl), so the layout stays the table's; `cell` goes on every cell.
 */
export type AdminTransactionCellClasses = { cell: string; member: string; memberLines: string; type: string; date: string };

/**
 * One transaction of the platform as an admin table draws it: its member (name over e-mail), type, amount (whole
 * dollars), status and date, the same five cells on the admin dashboard's recent transactions and the transactions screen.
 */
export function AdminTransactionCells({ transaction, classes }: { transaction: AdminTransaction; classes: AdminTransactionCellClasses }) {
  const { user } = transaction;
  const { t } = useT('admin');
  return (
    <>
      <td className={cn(classes.cell, classes.member)}>
        <TitleLines title={`${user.firstName} ${user.lastName}`} detail={user.email} className={classes.memberLines} />
      </td>
      <td className={cn(classes.cell, classes.type)}>{t(`transactionTypes.${transaction.type}`, { defaultValue: capitalize(transaction.type) })}</td>
      <td className={classes.cell}>
        <TransactionAmount type={transaction.type} amount={transaction.amount} status={transaction.status} decimals={0} />
      </td>
      <td className={classes.cell}>
        <TransactionStatusBadge status={transaction.status} />
      </td>
      <td className={cn(classes.cell, classes.date)}>
        <TransactionDate date={transaction.date} />
      </td>
    </>
  );
}

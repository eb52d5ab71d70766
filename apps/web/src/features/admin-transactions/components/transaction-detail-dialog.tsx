import { useRef, type ReactNode } from 'react';
import type { AdminTransaction } from '@terrafund/contracts';
import { Dialog } from '@/components/ui/dialog';
import { TextLink } from '@/components/ui/text-link';
import { capitalize, TransactionAmount, TransactionStatusBadge } from '@/components/money/transaction-cells';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';
import { formatDateTime, formatUsd, shortId } from '@/lib/format';
import { CopyButton } from './copy-button';
import { awaitsDecision, memberName } from './transaction-fields';
import { useWithdrawalDecision, WithdrawalStatusForm, WithdrawalUpdateButton } from './withdrawal-status-form';

/** A label over its value; `wide` fields (ids, addresses, the member) take the whole row. */
function Field({ label, wide = false, children }: { label: string; wide?: boolean; children: ReactNode }) {
  return (
    <div className={cn('border-b border-slate-200 py-2.5 dark:border-slate-800', wide && 'sm:col-span-2')}>
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase dark:text-slate-400">{label}</dt>
      <dd className="mt-1 min-w-0 text-slate-900 dark:text-slate-100">{children}</dd>
    </div>
  );
}

const none = <span className="text-slate-400 dark:text-slate-500">—</span>;

/** A long machine value (id, address, hash): wrapped anywhere, in a fixed-width face, with a copy button. */
function Code({ value, label }: { value: string; label: string }) {
  return (
    <span className="flex items-start gap-1">
      <span className="min-w-0 font-mono text-xs leading-7 break-all">{value}</span>
      <CopyButton value={value} label={label} />
    </span>
  );
}

/**
 * Every field of one transaction, and for a pending withdrawal the control that decides it. The caller
 * passes the row as it is now in the list, so a decision shows here as soon as it is made.
 */
export function TransactionDetailDialog({ transaction, onClose }: { transaction: AdminTransaction; onClose: () => void }) {
  const { user } = transaction;
  const name = memberName(transaction);
  const wholeDollars = Number.isInteger(transaction.amount);
  const statusRef = useRef<HTMLSpanElement>(null);
  // The form and its button leave once the withdrawal is decided; focus goes to the new status rather than
  // falling back to the page behind the dialog.
  const decision = useWithdrawalDecision(transaction, { onDecided: () => statusRef.current?.focus() });
  const decidable = awaitsDecision(transaction);

  return (
    <Dialog
      open
      onClose={onClose}
      title={`${capitalize(transaction.type)} ${shortId(transaction._id)}`}
      description={formatDateTime(transaction.date)}
      className="sm:max-w-xl"
      footer={decidable ? <WithdrawalUpdateButton decision={decision} /> : undefined}
    >
      <dl className="-mt-2.5 grid sm:grid-cols-2 sm:gap-x-6">
        <Field label="Transaction ID" wide>
          <Code value={transaction._id} label="Copy transaction ID" />
        </Field>
        <Field label="User" wide>
          <div className="flex flex-wrap items-baseline gap-x-3 gap-y-0.5">
            <span className="font-medium">{name}</span>
            <a href={`mailto:${user.email}`} className="break-all text-slate-600 hover:underline dark:text-slate-300">
              {user.email}
            </a>
            <TextLink to={paths.adminUser.getHref(user._id)} className="text-sm">
              Open user
            </TextLink>
          </div>
        </Field>
        <Field label="Type">{capitalize(transaction.type)}</Field>
        <Field label="Amount">
          <TransactionAmount type={transaction.type} amount={transaction.amount} status={transaction.status} decimals={0} />
          {/* Admin views round to whole dollars (docs/product.md §11.3 Formats); whoever pays a withdrawal needs the cents. */}
          {!wholeDollars && <span className="ml-2 text-xs text-slate-500 dark:text-slate-400">exactly {formatUsd(transaction.amount, 2)}</span>}
        </Field>
        <Field label="Status">
          <span ref={statusRef} tabIndex={-1} className="inline-flex rounded-full focus:outline-none">
            <TransactionStatusBadge status={transaction.status} />
          </span>
        </Field>
        <Field label="Date">
          <time dateTime={transaction.date}>{formatDateTime(transaction.date)}</time>
        </Field>
        <Field label="Description" wide>
          {transaction.description || none}
        </Field>
        <Field label="Wallet address" wide>
          {transaction.walletAddress ? <Code value={transaction.walletAddress} label="Copy wallet address" /> : none}
        </Field>
        <Field label="Transaction hash" wide>
          {transaction.txHash ? <Code value={transaction.txHash} label="Copy transaction hash" /> : none}
        </Field>
        <Field label="Plan">{transaction.plan ? capitalize(transaction.plan) : none}</Field>
        <Field label="Last updated">
          <time dateTime={transaction.updatedAt}>{formatDateTime(transaction.updatedAt)}</time>
        </Field>
      </dl>
      {decidable && <WithdrawalStatusForm decision={decision} />}
    </Dialog>
  );
}

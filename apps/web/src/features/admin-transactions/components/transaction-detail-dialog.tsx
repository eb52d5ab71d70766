import { useEffect, useRef, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  explorerAddressUrl,
  explorerTxUrl,
  isWithdrawalAssetId,
  messages,
  withdrawalAsset,
  type AdminTransaction,
  type AdminTransactionDetail,
  type WithdrawalAssetId,
} from '@terrafund/contracts';
import { ExternalLinkIcon } from 'lucide-react';
import { Dialog } from '@/components/ui/dialog';
import { LoadingBlock } from '@/components/ui/load-state';
import { TextLink } from '@/components/ui/text-link';
import { capitalize, TransactionAmount, TransactionStatusBadge } from '@/components/money/transaction-cells';
import { paths } from '@/config/paths';
import { useUser } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { formatDateTime, formatUsd, shortId } from '@/lib/format';
import { useT } from '@/lib/i18n';
import { useWithdrawalConfig } from '@/lib/public-config';
import { useAdminTransaction } from '../api/get-admin-transaction';
import { CopyButton } from './copy-button';
import { awaitsDecision, memberName } from './transaction-fields';
import { useWithdrawalDecision, WithdrawalStatusForm, WithdrawalUpdateButton } from './withdrawal-status-form';
import { queryKeys } from '@/lib/query-keys';

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

/** A link to a block explorer's page, opened in a new tab (and said so to screen readers). */
function ExplorerLink({ href, children }: { href: string; children: ReactNode }) {
  const { t } = useT('admin');
  return (
    <a
      href={href}
      target="_blank"
      rel="noreferrer noopener"
      className="inline-flex min-h-11 items-center gap-1 text-sm font-medium text-emerald-700 hover:underline sm:min-h-0 dark:text-emerald-400"
    >
      {children}
      <ExternalLinkIcon aria-hidden="true" className="h-3.5 w-3.5" />
      <span className="sr-only">{t('transactions.detail.newTab')}</span>
    </a>
  );
}

const stageLabel = (stage: AdminTransactionDetail['stage']) => (stage ? messages.withdrawals.stageLabels[stage] : undefined);

/** What only a withdrawal has: its coin and address, approvals, stage and the payout at the provider. */
function WithdrawalFields({ detail, assetId }: { detail: AdminTransactionDetail; assetId: WithdrawalAssetId | undefined }) {
  const coin = assetId ? withdrawalAsset(assetId) : undefined;
  const addressUrl = detail.explorer.address ?? (assetId && detail.walletAddress ? explorerAddressUrl(assetId, detail.walletAddress) : null);
  const txHash = detail.txHash ?? detail.payout?.txHash ?? null;
  const txUrl = detail.explorer.transaction ?? (assetId && txHash ? explorerTxUrl(assetId, txHash) : null);
  const waiting = detail.stage === 'waiting_for_provider';
  const { t, say } = useT('admin');
  const stage = stageLabel(detail.stage);
  return (
    <>
      <Field label={t('transactions.detail.coin')}>{coin ? coin.name : (detail.asset ?? none)}</Field>
      <Field label={t('transactions.detail.network')}>{detail.network ?? coin?.network ?? none}</Field>
      {detail.fee !== undefined && <Field label={t('transactions.detail.networkFee')}>{formatUsd(detail.fee, 2)}</Field>}
      {detail.receiveAmount !== undefined && <Field label={t('transactions.detail.memberReceives')}>{formatUsd(detail.receiveAmount, 2)}</Field>}
      <Field label={t('transactions.detail.stage')} wide>
        <span className={cn('font-medium', waiting && 'text-amber-700 dark:text-amber-300')}>{stage ? say(stage) : none}</span>
        {waiting && detail.lastError && <span className="mt-0.5 block text-xs text-slate-500 dark:text-slate-400">{t('transactions.detail.lastError', { error: detail.lastError })}</span>}
      </Field>
      <Field label={t('transactions.detail.approvals')} wide>
        {detail.approvals.length === 0 ? (
          none
        ) : (
          <ul aria-label={t('transactions.detail.approvals')} className="space-y-0.5">
            {detail.approvals.map((approval) => (
              <li key={`${approval.adminEmail}-${approval.at}`}>
                {approval.adminEmail} · <time dateTime={approval.at}>{formatDateTime(approval.at)}</time>
              </li>
            ))}
          </ul>
        )}
      </Field>
      <Field label={t('transactions.detail.payout')} wide>
        {detail.payout ? (
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
            <dt className="text-slate-500 dark:text-slate-400">{t('transactions.detail.provider')}</dt>
            <dd>{detail.payout.provider}</dd>
            <dt className="text-slate-500 dark:text-slate-400">{t('transactions.detail.state')}</dt>
            <dd>{detail.payout.state ?? none}</dd>
            <dt className="text-slate-500 dark:text-slate-400">{t('transactions.detail.providerId')}</dt>
            <dd className="min-w-0">{detail.payout.id ? <Code value={detail.payout.id} label={t('transactions.detail.copyProviderId')} /> : none}</dd>
            {detail.payout.cryptoAmount && (
              <>
                <dt className="text-slate-500 dark:text-slate-400">{t('transactions.detail.sent')}</dt>
                <dd>
                  {detail.payout.cryptoAmount} {detail.payout.cryptoCurrency ?? ''}
                </dd>
              </>
            )}
          </dl>
        ) : waiting ? (
          say(messages.withdrawals.waitingForProvider)
        ) : (
          none
        )}
      </Field>
      {addressUrl && (
        <Field label={t('transactions.detail.addressExplorer')} wide>
          <ExplorerLink href={addressUrl}>{t('transactions.detail.viewAddress')}</ExplorerLink>
        </Field>
      )}
      {txUrl && (
        <Field label={t('transactions.detail.txExplorer')} wide>
          <ExplorerLink href={txUrl}>{t('transactions.detail.viewTransaction')}</ExplorerLink>
        </Field>
      )}
    </>
  );
}

/**
 * Every field of one transaction, and for a pending withdrawal the control that decides it. The caller
 * passes the row as it is now in the list, so a decision shows here as soon as it is made; a withdrawal's
 * detail (coin, approvals, payout, explorer links) is fetched beside it.
 */
export function TransactionDetailDialog({ transaction, onClose }: { transaction: AdminTransaction; onClose: () => void }) {
  const { user } = transaction;
  const { t, say } = useT('admin');
  const name = memberName(transaction);
  const wholeDollars = Number.isInteger(transaction.amount);
  const statusRef = useRef<HTMLSpanElement>(null);
  const isWithdrawal = transaction.type === 'withdrawal';
  const detailQuery = useAdminTransaction(transaction._id, { enabled: isWithdrawal });
  const detail = detailQuery.data;
  const config = useWithdrawalConfig();
  const me = useUser();
  // The coin as the detail names it (a list row may not carry it).
  const asset = detail?.asset ?? transaction.asset;
  const assetId = asset && isWithdrawalAssetId(asset) ? asset : undefined;
  const canApprove = !(detail?.approvals ?? transaction.approvals ?? []).some((approval) => approval.adminEmail === me.email);
  // The form and its button leave once the withdrawal is decided; focus goes to the new status rather than
  // falling back to the page behind the dialog.
  const decision = useWithdrawalDecision({ ...transaction, asset }, {
    onDecided: () => statusRef.current?.focus(),
    manual: config.data?.payoutProvider === 'manual',
    canApprove,
  });
  // The row's stage, or the detail's when it is newer (a payout moving on while the dialog is open).
  const current = { ...transaction, ...(detail && detail.updatedAt > transaction.updatedAt ? { status: detail.status, stage: detail.stage } : {}) };
  const decidable = awaitsDecision(current);
  // A payout the provider finished while the dialog was open: the list behind it is fetched again to match.
  const queryClient = useQueryClient();
  const movedOn = detail !== undefined && detail.updatedAt > transaction.updatedAt && detail.status !== transaction.status;
  useEffect(() => {
    // Not again if the list is already being fetched (a decision just asked for it).
    if (movedOn) void queryClient.invalidateQueries({ queryKey: queryKeys.admin.transactionLists() }, { cancelRefetch: false });
  }, [movedOn, queryClient]);
  const awaitingMember = current.type === 'withdrawal' && current.status === 'pending' && current.stage === 'awaiting_confirmation';

  return (
    <Dialog
      open
      onClose={onClose}
      title={`${t(`transactionTypes.${transaction.type}`, { defaultValue: capitalize(transaction.type) })} ${shortId(transaction._id)}`}
      description={formatDateTime(transaction.date)}
      className="sm:max-w-xl"
      footer={decidable ? <WithdrawalUpdateButton decision={decision} /> : undefined}
    >
      <dl className="-mt-2.5 grid sm:grid-cols-2 sm:gap-x-6">
        <Field label={t('transactions.detail.transactionId')} wide>
          <Code value={transaction._id} label={t('transactions.detail.copyTransactionId')} />
        </Field>
        <Field label={t('transactions.detail.user')} wide>
          <div className="flex flex-wrap items-baseline gap-x-3 gap-y-0.5">
            <span className="font-medium">{name}</span>
            <a href={`mailto:${user.email}`} className="break-all text-slate-600 hover:underline dark:text-slate-300">
              {user.email}
            </a>
            <TextLink to={paths.adminUser.getHref(user._id)} className="text-sm">
              {t('transactions.detail.openUser')}
            </TextLink>
          </div>
        </Field>
        <Field label={t('transactions.detail.type')}>{t(`transactionTypes.${transaction.type}`, { defaultValue: capitalize(transaction.type) })}</Field>
        <Field label={t('transactions.detail.amount')}>
          <TransactionAmount type={transaction.type} amount={transaction.amount} status={transaction.status} decimals={0} />
          {/* Admin views round to whole dollars (docs/product.md §11.3 Formats); whoever pays a withdrawal needs the cents. */}
          {!wholeDollars && <span className="ml-2 text-xs text-slate-500 dark:text-slate-400">{t('transactions.detail.exactly', { amount: formatUsd(transaction.amount, 2) })}</span>}
        </Field>
        <Field label={t('transactions.detail.status')}>
          <span ref={statusRef} tabIndex={-1} className="inline-flex rounded-full focus:outline-none">
            <TransactionStatusBadge status={current.status} />
          </span>
        </Field>
        <Field label={t('transactions.detail.date')}>
          <time dateTime={transaction.date}>{formatDateTime(transaction.date)}</time>
        </Field>
        <Field label={t('transactions.detail.description')} wide>
          {transaction.description || none}
        </Field>
        <Field label={t('transactions.detail.walletAddress')} wide>
          {transaction.walletAddress ? <Code value={transaction.walletAddress} label={t('transactions.detail.copyWalletAddress')} /> : none}
        </Field>
        <Field label={t('transactions.detail.txHash')} wide>
          {(detail?.txHash ?? transaction.txHash) ? (
            <Code value={(detail?.txHash ?? transaction.txHash)!} label={t('transactions.detail.copyTxHash')} />
          ) : (
            none
          )}
        </Field>
        {isWithdrawal &&
          (detail ? (
            <WithdrawalFields detail={detail} assetId={assetId} />
          ) : detailQuery.isPending ? (
            <div className="sm:col-span-2">
              <LoadingBlock label={t('transactions.detail.loadingPayout')} className="py-4" />
            </div>
          ) : (
            <p role="alert" className="py-2.5 text-sm text-rose-600 sm:col-span-2 dark:text-rose-400">
              {t('transactions.detail.payoutFailed')}
            </p>
          ))}
        <Field label={t('transactions.detail.plan')}>{transaction.plan ? capitalize(transaction.plan) : none}</Field>
        <Field label={t('transactions.detail.updated')}>
          <time dateTime={transaction.updatedAt}>{formatDateTime(transaction.updatedAt)}</time>
        </Field>
      </dl>
      {awaitingMember && (
        <p className="mt-4 rounded-xl bg-sky-50 p-4 text-sm text-sky-900 dark:bg-sky-500/10 dark:text-sky-100">
          {t('transactions.detail.awaitingMember', { status: say(messages.withdrawals.awaitingConfirmation) })}
        </p>
      )}
      {decidable && !canApprove && (
        <p className="mt-4 rounded-xl bg-slate-50 p-4 text-sm text-slate-700 dark:bg-slate-800/60 dark:text-slate-200">
          {t('transactions.detail.secondApproval')}
        </p>
      )}
      {decidable && <WithdrawalStatusForm decision={decision} />}
    </Dialog>
  );
}

import { useEffect, useRef, type ReactNode } from 'react';
import { Link } from 'react-router';
import { isWithdrawalAssetId, messages, withdrawalAsset } from '@terrafund/contracts';
import { CheckCircleIcon, XCircleIcon } from 'lucide-react';
import { paths } from '@/config/paths';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatUsd } from '@/lib/format';
import { useT } from '@/lib/i18n';
import { useConfirmWithdrawal } from '../api/confirm-withdrawal';
import { assetLabel } from '../utils/withdrawal-form';

function Outcome({ ok, title, children }: { ok: boolean; title: string; children: ReactNode }) {
  const Icon = ok ? CheckCircleIcon : XCircleIcon;
  const { t } = useT('wallet');
  return (
    <>
      <title>{`${title} · Terrafund`}</title>
      <span
        className={cn(
          'mx-auto flex h-14 w-14 items-center justify-center rounded-full',
          ok ? 'bg-emerald-50 text-emerald-600 dark:bg-emerald-500/10 dark:text-emerald-400' : 'bg-rose-50 text-rose-600 dark:bg-rose-500/10 dark:text-rose-400',
        )}
      >
        <Icon className="h-7 w-7" />
      </span>
      <h1 className="mt-5 text-2xl font-semibold tracking-tight text-slate-900 dark:text-white">{title}</h1>
      {children}
      <Link to={paths.wallet.getHref()} className={buttonClasses({ className: 'mt-6' })}>
        {t('confirmation.goToWallet')}
      </Link>
    </>
  );
}

/**
 * /wallet/withdrawals/confirm?token=…, the link mailed for a first withdrawal to an address. It needs no session
 * (the token is the credential): it posts the token once, and says what the server answered: the withdrawal now
 * waiting for approval (amount, coin, address), or why the link cannot be used (already used, unknown, expired:
 * then the amount is back in the wallet).
 */
export function WithdrawalConfirmation({ token }: { token: string | null }) {
  const confirm = useConfirmWithdrawal();
  const { t, say } = useT('wallet');
  // The token is single use: asked once per page, however often React runs the effect (StrictMode runs it twice).
  const asked = useRef(false);
  const { mutate } = confirm;
  useEffect(() => {
    if (!token || asked.current) return;
    asked.current = true;
    mutate(token);
  }, [token, mutate]);

  let content;
  if (!token) {
    content = (
      <Outcome ok={false} title={t('confirmation.cannotUse')}>
        <p role="alert" className="mt-2 text-sm text-slate-600 dark:text-slate-300">
          {say(messages.withdrawals.tokenInvalid)}
        </p>
      </Outcome>
    );
  } else if (confirm.isSuccess) {
    const withdrawal = confirm.data;
    const assetId = withdrawal.asset && isWithdrawalAssetId(withdrawal.asset) ? withdrawal.asset : undefined;
    content = (
      <Outcome ok title={t('confirmation.confirmed')}>
        <p role="status" className="mt-2 text-sm text-slate-600 dark:text-slate-300">
          {say(messages.withdrawals.confirmed)}
        </p>
        <dl className="mt-5 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-left text-sm">
          <dt className="text-slate-500 dark:text-slate-400">{t('confirmation.amount')}</dt>
          <dd className="font-medium text-slate-900 tabular-nums dark:text-white">{formatUsd(withdrawal.amount)}</dd>
          {withdrawal.receiveAmount !== undefined && (
            <>
              <dt className="text-slate-500 dark:text-slate-400">{t('confirmation.receive')}</dt>
              <dd className="font-medium text-slate-900 tabular-nums dark:text-white">{formatUsd(withdrawal.receiveAmount)}</dd>
            </>
          )}
          {assetId && (
            <>
              <dt className="text-slate-500 dark:text-slate-400">{t('confirmation.coin')}</dt>
              <dd className="font-medium text-slate-900 dark:text-white">{assetLabel(withdrawalAsset(assetId))}</dd>
            </>
          )}
          {withdrawal.walletAddress && (
            <>
              <dt className="text-slate-500 dark:text-slate-400">{t('confirmation.address')}</dt>
              <dd className="font-mono text-xs break-all text-slate-900 dark:text-white">{withdrawal.walletAddress}</dd>
            </>
          )}
        </dl>
      </Outcome>
    );
  } else if (confirm.isError) {
    content = (
      <Outcome ok={false} title={t('confirmation.cannotUse')}>
        <p role="alert" className="mt-2 text-sm text-slate-600 dark:text-slate-300">
          {errorMessage(confirm.error, say(messages.common.unexpected))}
        </p>
      </Outcome>
    );
  } else {
    content = (
      <>
        <title>{t('confirmation.confirmingTitle')}</title>
        <Spinner size="lg" label={t('confirmation.confirming')} />
      </>
    );
  }

  return (
    <div className="flex justify-center py-8 sm:py-16">
      <Card className="w-full max-w-md px-6 py-10 text-center sm:px-10">{content}</Card>
    </div>
  );
}

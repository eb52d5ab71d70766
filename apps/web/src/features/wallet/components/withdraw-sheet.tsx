import { useEffect, useMemo, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import toast from 'react-hot-toast';
import { messages, MIN_WITHDRAWAL_USD, type KycStatus, type Transaction, type User } from '@terrafund/contracts';
import { MailIcon } from 'lucide-react';
import { paths } from '@/config/paths';
import { Alert } from '@/components/ui/alert';
import { Button, buttonClasses } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { LoadingBlock } from '@/components/ui/load-state';
import { PasswordInput } from '@/components/ui/password-input';
import { Select } from '@/components/ui/select';
import { Sheet } from '@/components/ui/sheet';
import { errorMessage, isApiError } from '@/lib/api-client';
import { applyServerFieldErrors } from '@/lib/form-errors';
import { formatUsd } from '@/lib/format';
import { useWithdrawalConfig } from '@/lib/public-config';
import { useT } from '@/lib/i18n';
import { useCreateWithdrawal } from '../api/create-withdrawal';
import { assetLabel, offeredAssets, parseAmount, receiveAmount, withdrawalFormSchema } from '../utils/withdrawal-form';

const FORM_ID = 'withdraw-form';


type WithdrawSheetProps = { user: User; open: boolean; onClose: () => void };

/**
 * The withdraw side panel: the coin (with its network), an address checked for that coin as it is typed, an amount
 * with the fee and what arrives, and the password (or, with two-factor authentication on, a current code) that
 * confirms it is the member asking. Without approved KYC: why not, and a link to /kyc. The server checks
 * everything again. A first withdrawal to an address ends on "check your mailbox": the mailed link confirms it.
 */
export function WithdrawSheet({ user, open, onClose }: WithdrawSheetProps) {
  const withdraw = useCreateWithdrawal();
  const { t, say } = useT('wallet');
  const config = useWithdrawalConfig();
  const assets = useMemo(() => offeredAssets(config.data), [config.data]);
  const firstAsset = assets[0]?.id;
  const twoFactor = user.twoFactorEnabled;
  const schema = useMemo(() => withdrawalFormSchema({ balance: user.balance, twoFactor }), [user.balance, twoFactor]);
  // The request that went to a new address: the panel then says to confirm it from the mail.
  const [awaitingMail, setAwaitingMail] = useState<Transaction | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    setValue,
    getValues,
    trigger,
    control,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(schema),
    mode: 'onTouched',
    defaultValues: { asset: firstAsset, walletAddress: '', amount: undefined, password: '', code: '' },
  });

  // A refusal that arrives after the panel was closed has no field to show it under: it is toasted.
  const openRef = useRef(open);
  useEffect(() => {
    openRef.current = open;
    if (!open) {
      reset({ asset: firstAsset, walletAddress: '', amount: undefined, password: '', code: '' });
      setAwaitingMail(null);
    }
  }, [open, reset, firstAsset]);
  // The coins arrive with the public config, perhaps after the form was made: the first one is chosen.
  useEffect(() => {
    if (firstAsset && !getValues('asset')) setValue('asset', firstAsset);
  }, [firstAsset, getValues, setValue]);

  const [assetId, amount] = useWatch({ control, name: ['asset', 'amount'] });
  const asset = assets.find((candidate) => candidate.id === assetId);
  const fee = asset?.feeUsd ?? config.data?.withdrawalFeeUsd ?? 0;
  const received = receiveAmount(typeof amount === 'number' ? amount : undefined, fee);

  const onSubmit = handleSubmit(({ asset: chosen, walletAddress, amount: requested, password, code }) => {
    // Enter pressed again while the first request is on its way must not ask twice.
    if (withdraw.isPending) return;
    const stepUp = twoFactor ? { code: code ?? '' } : { password: password ?? '' };
    withdraw.mutate(
      { asset: chosen, walletAddress, amount: requested, ...stepUp },
      {
        onSuccess: ({ transaction }) => {
          if (transaction.awaitingConfirmation && openRef.current) setAwaitingMail(transaction);
          else onClose();
        },
        onError: (error) => {
          // A 401 has already ended the session and said so (lib/query-client).
          if (isApiError(error) && error.status === 401) return;
          const shown =
            openRef.current &&
            applyServerFieldErrors(error, setError, {
              amount: 'amount',
              walletAddress: 'wallet address',
              asset: null,
              password: null,
              code: null,
            });
          if (!shown) toast.error(errorMessage(error, say(messages.wallet.withdrawalFailed)));
        },
      },
    );
  });

  const kycApproved = user.kycStatus === 'approved' && user.kycVerified;
  // Why a member without approved KYC cannot withdraw yet, and what to do (docs/product.md §5.5 Memberships).
  const gate: Exclude<KycStatus, 'approved'> = user.kycStatus === 'approved' ? 'pending' : user.kycStatus;
  const showForm = kycApproved && !awaitingMail && assets.length > 0;

  let body;
  if (!kycApproved) {
    // The action goes under the explanation: beside it, in a panel this narrow, both would be squeezed.
    body = (
      <Alert tone="warning" title={say(messages.wallet.kycRequired)}>
        <p>{t(`withdraw.gate.${gate}.text`)}</p>
        <Link to={paths.kyc.getHref()} className={buttonClasses({ variant: 'secondary', size: 'sm', className: 'mt-3' })}>
          {t(`withdraw.gate.${gate}.action`)}
        </Link>
      </Alert>
    );
  } else if (awaitingMail) {
    body = (
      <div role="status" className="space-y-4">
        <span className="flex h-12 w-12 items-center justify-center rounded-full bg-sky-50 text-sky-600 dark:bg-sky-500/10 dark:text-sky-400">
          <MailIcon className="h-6 w-6" />
        </span>
        <h3 className="text-base font-semibold text-slate-900 dark:text-white">{t('withdraw.checkMailbox')}</h3>
        <p>{say(messages.withdrawals.requestedNewAddress)}</p>
        <p>{t('withdraw.linkValid', { amount: formatUsd(awaitingMail.amount) })}</p>
        {awaitingMail.walletAddress && (
          <p className="rounded-lg bg-slate-50 p-3 font-mono text-xs break-all text-slate-900 dark:bg-slate-800/60 dark:text-white">
            {awaitingMail.walletAddress}
          </p>
        )}
      </div>
    );
  } else if (config.isPending) {
    body = <LoadingBlock label={t('withdraw.loadingCoins')} className="py-12" />;
  } else if (assets.length === 0) {
    body = (
      <Alert tone="danger" title={t('withdraw.unavailableTitle')}>
        <p>{t('withdraw.unavailableText')}</p>
      </Alert>
    );
  } else {
    const addressField = register('walletAddress', {
      // Checked as typed (and pasted): a wrong address is said before the amount is even entered.
      onChange: () => void trigger('walletAddress'),
    });
    const assetField = register('asset', {
      // Another coin, another rule: an address already typed is checked again for the new coin.
      onChange: () => {
        if (getValues('walletAddress').trim() !== '') void trigger('walletAddress');
      },
    });
    body = (
      <form id={FORM_ID} onSubmit={onSubmit} noValidate className="space-y-5">
        <FormField
          label={t('withdraw.coin')}
          error={errors.asset?.message && say(errors.asset.message)}
          hint={asset ? t('withdraw.coinHint', { network: asset.network }) : undefined}
        >
          {(fieldControl) => (
            <Select
              {...fieldControl}
              {...assetField}
              options={assets.map((option) => ({ value: option.id, label: assetLabel(option) }))}
            />
          )}
        </FormField>
        <FormField
          label={t('withdraw.address')}
          error={errors.walletAddress?.message && say(errors.walletAddress.message)}
          hint={asset ? t('withdraw.addressHint', { name: asset.name, network: asset.network }) : undefined}
        >
          {(fieldControl) => (
            <Input
              {...fieldControl}
              {...addressField}
              data-autofocus
              autoComplete="off"
              autoCapitalize="off"
              spellCheck={false}
              className="font-mono"
            />
          )}
        </FormField>
        <FormField
          label={t('withdraw.amount')}
          error={errors.amount?.message && say(errors.amount.message)}
          hint={t('withdraw.amountHint', { amount: formatUsd(MIN_WITHDRAWAL_USD) })}
        >
          {(fieldControl) => (
            <Input {...fieldControl} {...register('amount', { setValueAs: parseAmount })} inputMode="decimal" autoComplete="off" />
          )}
        </FormField>
        <dl aria-label={t('withdraw.summary')} className="space-y-1.5 rounded-xl bg-slate-50 p-4 text-slate-600 dark:bg-slate-800/60 dark:text-slate-300">
          <div className="flex justify-between gap-4">
            <dt>{t('withdraw.fee')}</dt>
            <dd className="tabular-nums">{formatUsd(fee)}</dd>
          </div>
          <div className="flex justify-between gap-4 font-medium text-slate-900 dark:text-white">
            <dt>{t('withdraw.receive')}</dt>
            <dd className="tabular-nums">{received === undefined ? '—' : asset ? t('withdraw.receiveIn', { amount: formatUsd(received), coin: asset.name }) : formatUsd(received)}</dd>
          </div>
        </dl>
        {twoFactor ? (
          <FormField
            label={t('withdraw.code')}
            error={errors.code?.message && say(errors.code.message)}
            hint={t('withdraw.codeHint')}
          >
            {(fieldControl) => (
              <Input
                {...fieldControl}
                {...register('code')}
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                className="font-mono tracking-widest"
              />
            )}
          </FormField>
        ) : (
          <FormField label={t('withdraw.password')} error={errors.password?.message && say(errors.password.message)} hint={t('withdraw.passwordHint')}>
            {(fieldControl) => <PasswordInput {...fieldControl} {...register('password')} autoComplete="current-password" />}
          </FormField>
        )}
        <ul className="space-y-1.5 text-xs text-slate-500 dark:text-slate-400">
          <li>{t('withdraw.minimum', { amount: formatUsd(MIN_WITHDRAWAL_USD) })}</li>
          {config.data && <li>{t('withdraw.dailyLimit', { amount: formatUsd(config.data.withdrawalDailyLimitUsd) })}</li>}
          <li>{t('withdraw.firstToAddress')}</li>
          <li>{t('withdraw.processed')}</li>
        </ul>
      </form>
    );
  }

  return (
    <Sheet
      open={open}
      onClose={onClose}
      title={t('withdraw.title')}
      description={t('withdraw.available', { amount: formatUsd(user.balance) })}
      footer={
        showForm ? (
          <>
            <Button variant="ghost" onClick={onClose}>
              {t('withdraw.cancel')}
            </Button>
            <Button type="submit" form={FORM_ID} isLoading={withdraw.isPending}>
              {t('withdraw.submit')}
            </Button>
          </>
        ) : awaitingMail ? (
          <Button onClick={onClose}>{t('withdraw.done')}</Button>
        ) : undefined
      }
    >
      {body}
    </Sheet>
  );
}

import { useEffect, useMemo, useRef } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import toast from 'react-hot-toast';
import { messages, MIN_WITHDRAWAL_USD, WITHDRAWAL_NETWORK_FEE, type KycStatus, type User } from '@terrafund/contracts';
import { paths } from '@/config/paths';
import { Alert } from '@/components/ui/alert';
import { Button, buttonClasses } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Sheet } from '@/components/ui/sheet';
import { errorMessage, isApiError } from '@/lib/api-client';
import { applyServerFieldErrors } from '@/lib/form-errors';
import { formatUsd } from '@/lib/format';
import { useCreateWithdrawal } from '../api/create-withdrawal';
import { parseAmount, withdrawalFormSchema } from '../utils/withdrawal-form';

const FORM_ID = 'withdraw-form';

/** Why a member without approved KYC cannot withdraw yet, and what to do (docs/product.md §5.5 Memberships). */
const kycGate: Record<Exclude<KycStatus, 'approved'>, { text: string; action: string }> = {
  not_started: { text: 'Withdrawals need a verified identity. It takes a few minutes to submit.', action: 'Complete KYC now' },
  pending: { text: 'Your verification is in review, which usually takes 1-2 business days.', action: 'View verification status' },
  rejected: { text: 'Your verification was rejected. Review the reason and submit it again.', action: 'Review and resubmit' },
};

type WithdrawSheetProps = { user: User; open: boolean; onClose: () => void };

/**
 * The withdraw side panel: a wallet address and an amount, checked with the API's own rules before
 * asking, or, without approved KYC, why not and a link to /kyc. The server checks everything again.
 */
export function WithdrawSheet({ user, open, onClose }: WithdrawSheetProps) {
  const withdraw = useCreateWithdrawal();
  const schema = useMemo(() => withdrawalFormSchema(user.balance), [user.balance]);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm({ resolver: zodResolver(schema), defaultValues: { walletAddress: '', amount: undefined } });

  // A refusal that arrives after the panel was closed has no field to show it under: it is toasted.
  const openRef = useRef(open);
  useEffect(() => {
    openRef.current = open;
    if (!open) reset();
  }, [open, reset]);

  const onSubmit = handleSubmit((values) => {
    // Enter pressed again while the first request is on its way must not ask twice.
    if (withdraw.isPending) return;
    withdraw.mutate(values, {
      onSuccess: onClose,
      onError: (error) => {
        // A 401 has already ended the session and said so (lib/query-client).
        if (isApiError(error) && error.status === 401) return;
        const shown =
          openRef.current && applyServerFieldErrors(error, setError, { amount: 'amount', walletAddress: 'wallet address' });
        if (!shown) toast.error(errorMessage(error, messages.wallet.withdrawalFailed));
      },
    });
  });

  const kycApproved = user.kycStatus === 'approved' && user.kycVerified;
  const gate = user.kycStatus === 'approved' ? kycGate.pending : kycGate[user.kycStatus];

  return (
    <Sheet
      open={open}
      onClose={onClose}
      title="Withdraw"
      description={`Available for withdrawal: ${formatUsd(user.balance)}`}
      footer={
        kycApproved ? (
          <>
            <Button variant="ghost" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" form={FORM_ID} isLoading={withdraw.isPending}>
              Request withdrawal
            </Button>
          </>
        ) : undefined
      }
    >
      {kycApproved ? (
        <form id={FORM_ID} onSubmit={onSubmit} noValidate className="space-y-5">
          <FormField label="Wallet address" error={errors.walletAddress?.message} hint="The address your funds are sent to.">
            {(control) => (
              <Input
                {...control}
                {...register('walletAddress')}
                data-autofocus
                autoComplete="off"
                autoCapitalize="off"
                spellCheck={false}
                className="font-mono"
              />
            )}
          </FormField>
          <FormField label="Amount" error={errors.amount?.message}>
            {(control) => (
              <Input
                {...control}
                {...register('amount', { setValueAs: parseAmount })}
                inputMode="decimal"
                autoComplete="off"
              />
            )}
          </FormField>
          <ul className="space-y-1.5 rounded-xl bg-slate-50 p-4 text-slate-600 dark:bg-slate-800/60 dark:text-slate-300">
            <li>Minimum withdrawal: {MIN_WITHDRAWAL_USD} Crypto</li>
            <li>Network fee: {WITHDRAWAL_NETWORK_FEE} Crypto</li>
            <li>Withdrawals are processed within 24 hours.</li>
          </ul>
        </form>
      ) : (
        // The action goes under the explanation: beside it, in a panel this narrow, both would be squeezed.
        <Alert tone="warning" title={messages.wallet.kycRequired}>
          <p>{gate.text}</p>
          <Link to={paths.kyc.getHref()} className={buttonClasses({ variant: 'secondary', size: 'sm', className: 'mt-3' })}>
            {gate.action}
          </Link>
        </Alert>
      )}
    </Sheet>
  );
}

import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { CLOSE_CONFIRMATION, KYC_RETENTION_DAYS_DEFAULT, messages, MIN_WITHDRAWAL_USD, type User } from '@terrafund/contracts';
import { paths } from '@/config/paths';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { errorMessage, isApiError } from '@/lib/api-client';
import { clearSession } from '@/lib/auth-storage';
import { applyServerFieldErrors } from '@/lib/form-errors';
import { formatUsd } from '@/lib/format';
import { useT } from '@/lib/i18n';
import { useCloseAccount } from '../api/close-account';
import { stepUpBody, stepUpKindOf, stepUpRules } from '../utils/step-up';
import { ProfileCard } from './profile-card';
import { StepUpField, useReturnFocus } from './step-up-field';

type Form = { confirm: string; password: string; code: string };
const empty: Form = { confirm: '', password: '', code: '' };

const KYC_RETENTION_YEARS = Math.round(KYC_RETENTION_DAYS_DEFAULT / 365);

/**
 * Profile → Privacy → Close my account (issue 34). What closing does, what the law makes us keep and for how long,
 * and that a balance under the minimum withdrawal is given up, all said before anything is asked; then CLOSE typed
 * and the step-up. On success every session has ended on the server: the member is signed out here too and taken
 * to the landing page.
 */
export function CloseAccountCard({ user }: { user: Pick<User, 'twoFactorEnabled' | 'balance'> }) {
  const [open, setOpen] = useState(false);
  const opener = useReturnFocus(open);
  const { t } = useT('profile');
  const minimum = formatUsd(MIN_WITHDRAWAL_USD);
  return (
    <ProfileCard id="close-account-title" title={t('close.title')} description={t('close.description')}>
      <div className="space-y-5 px-5 py-5 sm:px-6">
        <div className="space-y-3 text-sm text-slate-600 dark:text-slate-300">
          <p>{t('close.when')}</p>
          <ul className="list-disc space-y-1.5 pl-5">
            <li>{t('close.effects.signedOut')}</li>
            <li>{t('close.effects.erased')}</li>
            <li>{t('close.effects.dividends')}</li>
            <li>{t('close.effects.again')}</li>
          </ul>
          <p>{t('close.kept')}</p>
          <ul className="list-disc space-y-1.5 pl-5">
            <li>{t('close.keeps.kyc', { years: KYC_RETENTION_YEARS })}</li>
            <li>{t('close.keeps.ledger')}</li>
          </ul>
          <p>{t('close.cannot', { minimum })}</p>
        </div>
        <BalanceNotice balance={user.balance} />
        {open ? (
          <CloseAccountForm user={user} onCancel={() => setOpen(false)} />
        ) : (
          <div className="flex justify-end">
            <Button ref={opener} variant="danger" onClick={() => setOpen(true)} className="w-full sm:w-auto">
              {t('close.button')}
            </Button>
          </div>
        )}
      </div>
    </ProfileCard>
  );
}

/** The member's own balance, said in figures before anything is asked. */
function BalanceNotice({ balance }: { balance: number }) {
  const { t, say } = useT('profile');
  if (balance <= 0) return null;
  if (balance < MIN_WITHDRAWAL_USD) {
    return (
      <Alert tone="warning" title={t('close.givenUp')}>
        {say(messages.privacy.closeSmallBalance(formatUsd(balance)))}
      </Alert>
    );
  }
  return (
    <Alert tone="info" title={t('close.withdrawFirst')}>
      {say(messages.privacy.closeBalance(formatUsd(balance)))}
    </Alert>
  );
}

function CloseAccountForm({ user, onCancel }: { user: Pick<User, 'twoFactorEnabled'>; onCancel: () => void }) {
  const kind = stepUpKindOf(user);
  const close = useCloseAccount();
  const { t, say } = useT('profile');
  const queryClient = useQueryClient();
  const [refusal, setRefusal] = useState<string>();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<Form>({ defaultValues: empty });

  const onSubmit = handleSubmit((values) => {
    if (close.isPending) return;
    setRefusal(undefined);
    close.mutate(
      { confirm: CLOSE_CONFIRMATION, ...stepUpBody(kind, values) },
      {
        onSuccess: async ({ message }) => {
          // The server has ended every session. Forgotten here at once, so that nothing asks again with the dead
          // token (a 401 would end the session as expired and go to /login); the profile's guard then sends the
          // member to the landing page.
          await queryClient.cancelQueries();
          clearSession({ signedOut: true, leaveTo: paths.home.getHref() });
          queryClient.clear();
          toast.success(message || say(messages.privacy.closed));
        },
        onError: (error) => {
          if (isApiError(error) && error.status === 401) return;
          if (isApiError(error) && error.status === 409) {
            setRefusal(errorMessage(error, say(messages.privacy.closeFailed)));
            return;
          }
          if (!applyServerFieldErrors(error, setError, { password: null, code: null, confirm: null })) {
            toast.error(errorMessage(error, say(messages.privacy.closeFailed)));
          }
        },
      },
    );
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('close.title')} className="space-y-4 rounded-xl border border-rose-200 p-4 dark:border-rose-500/30">
      {refusal && (
        <div role="alert">
          <Alert tone="danger" title={t('close.refused')}>
            {refusal}
          </Alert>
        </div>
      )}
      <FormField label={t('close.type', { word: CLOSE_CONFIRMATION })} error={errors.confirm?.message && say(errors.confirm.message)}>
        {(control) => (
          <Input
            {...control}
            {...register('confirm', { validate: (value) => value.trim() === CLOSE_CONFIRMATION || messages.privacy.confirmRequired })}
            // The form opens on the member's own press: the first thing to do is type the word.
            autoFocus
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
          />
        )}
      </FormField>
      <StepUpField kind={kind} error={errors[kind]?.message} registration={register(kind, stepUpRules(kind))} />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onCancel}>
          {t('close.cancel')}
        </Button>
        <Button type="submit" variant="danger" isLoading={close.isPending}>
          {t('close.submit')}
        </Button>
      </div>
    </form>
  );
}

import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { messages } from '@terrafund/contracts';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { errorMessage, isApiError } from '@/lib/api-client';
import { useLoginSecondFactor } from '../api/login-second-factor';
import { AuthScreen, AuthSubmitButton } from './auth-screen';
import { useT } from '@/lib/i18n';

/**
 * The sign-in's second step when the account has two-factor sign-in: the 6-digit code from the authenticator
 * app, or one of the recovery codes. An ended attempt (too many wrong codes, 10 minutes) goes back to the password.
 */
export function TwoFactorForm({ challenge, remember, onBack }: { challenge: string; remember: boolean; onBack: () => void }) {
  const [code, setCode] = useState('');
  const [useRecovery, setUseRecovery] = useState(false);
  const [error, setError] = useState<string>();
  const login = useLoginSecondFactor(remember);
  const { t } = useT('auth');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const typed = code.trim();
    if (useRecovery ? typed.length === 0 : !/^\d{6}$/.test(typed.replace(/\s+/g, ''))) {
      setError(useRecovery ? messages.twoFactor.recoveryOrCodeRequired : messages.twoFactor.codeRequired);
      return;
    }
    setError(undefined);
    login.mutate(
      { challenge, code: typed },
      {
        onError: (failure) => {
          if (isApiError(failure) && failure.status === 401) {
            toast.error(errorMessage(failure, messages.twoFactor.challengeEnded));
            onBack();
            return;
          }
          setError(errorMessage(failure, messages.twoFactor.codeInvalid));
          setCode('');
        },
      },
    );
  };

  return (
    <AuthScreen
      pageTitle={t('twoFactor.pageTitle')}
      title={t('twoFactor.title')}
      intro={useRecovery ? t('twoFactor.recoveryIntro') : t('twoFactor.codeIntro')}
    >
      <form onSubmit={submit} noValidate className="space-y-5">
        <FormField label={useRecovery ? t('twoFactor.recoveryCode') : t('twoFactor.code')} error={error}>
          {(control) => (
            <Input
              {...control}
              value={code}
              onChange={(e) => setCode(e.target.value)}
              inputMode={useRecovery ? 'text' : 'numeric'}
              autoComplete="one-time-code"
              autoFocus
              maxLength={useRecovery ? 32 : 7}
              placeholder={useRecovery ? 'xxxxx-xxxxx' : '123456'}
            />
          )}
        </FormField>
        <AuthSubmitButton isLoading={login.isPending}>{t('twoFactor.submit')}</AuthSubmitButton>
      </form>
      <div className="mt-6 flex justify-between text-sm">
        <button
          type="button"
          className="text-emerald-700 hover:underline dark:text-emerald-400"
          onClick={() => {
            setUseRecovery(!useRecovery);
            setError(undefined);
            setCode('');
          }}
        >
          {useRecovery ? t('twoFactor.useCode') : t('twoFactor.useRecovery')}
        </button>
        <button type="button" className="text-slate-500 hover:underline" onClick={onBack}>
          {t('twoFactor.back')}
        </button>
      </div>
    </AuthScreen>
  );
}

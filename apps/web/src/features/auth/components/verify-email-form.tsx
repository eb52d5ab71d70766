import { useEffect, useId, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import toast from 'react-hot-toast';
import { messages, OTP_RESEND_COOLDOWN_SECONDS, otpForm } from '@terrafund/contracts';
import { Button } from '@/components/ui/button';
import { ArrowLeftIcon, MailIcon } from 'lucide-react';
import { errorMessage, isApiError } from '@/lib/api-client';
import { useResendOtp } from '../api/resend-otp';
import { useVerifyOtp } from '../api/verify-otp';
import { useCountdown } from '../hooks/use-countdown';
import { AuthScreen, AuthSubmitButton, EmailSentence } from './auth-screen';
import { OtpInput } from './otp-input';
import { useT } from '@/lib/i18n';

type VerifyEmailFormProps = {
  email: string;
  /** Where to keep the session once verified (the login form's remember-me). */
  remember: boolean;
  onBack: () => void;
};

/**
 * The e-mail code screen shown after registration and after signing in to an unverified account.
 * A code was mailed just before it opens, so the resend cooldown starts at once.
 */
export function VerifyEmailForm({ email, remember, onBack }: VerifyEmailFormProps) {
  const errorId = useId();
  const { t, say } = useT('auth');
  const verify = useVerifyOtp({ remember });
  const resend = useResendOtp();
  const { secondsLeft, restart } = useCountdown(OTP_RESEND_COOLDOWN_SECONDS);
  const { control, handleSubmit, reset, setFocus } = useForm({
    resolver: zodResolver(otpForm),
    defaultValues: { otp: '' },
  });
  // Counts failed tries; each one sends the focus back to the first box once the boxes are enabled
  // again (they are disabled while the check runs, and a disabled box cannot take the focus).
  const [failedTries, setFailedTries] = useState(0);
  const pending = verify.isPending;
  useEffect(() => {
    if (failedTries > 0 && !pending) setFocus('otp');
  }, [failedTries, pending, setFocus]);

  const onSubmit = handleSubmit(({ otp }) =>
    verify.mutate(
      { email, otp },
      {
        onError: (error) => {
          toast.error(errorMessage(error, messages.toasts.otpVerifyFailed));
          reset({ otp: '' });
          setFailedTries((tries) => tries + 1);
        },
      },
    ),
  );

  const onResend = () =>
    resend.mutate(
      { email },
      {
        onSuccess: () => {
          toast.success(messages.toasts.otpSent);
          restart(OTP_RESEND_COOLDOWN_SECONDS);
        },
        onError: (error) => {
          toast.error(errorMessage(error, messages.toasts.otpResendFailed));
          if (isApiError(error) && error.retryAfter) restart(error.retryAfter);
        },
      },
    );

  return (
    <AuthScreen
      icon={<MailIcon className="h-6 w-6" />}
      title={t('verify.title')}
      intro={<EmailSentence before={t('verify.sentBefore')} email={email} after={t('verify.sentAfter')} />}
    >
      <form onSubmit={onSubmit} noValidate className="space-y-6">
        <Controller
          control={control}
          name="otp"
          render={({ field, fieldState }) => (
            <div>
              <OtpInput
                ref={field.ref}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                invalid={Boolean(fieldState.error)}
                describedBy={fieldState.error ? errorId : undefined}
                disabled={verify.isPending}
              />
              {fieldState.error && (
                <p id={errorId} className="mt-2 text-sm text-rose-600 dark:text-rose-400">
                  {fieldState.error.message && say(fieldState.error.message)}
                </p>
              )}
            </div>
          )}
        />

        <AuthSubmitButton isLoading={verify.isPending}>{t('verify.submit')}</AuthSubmitButton>
      </form>

      <div className="mt-6 flex flex-col items-center gap-4 text-sm">
        <p className="text-slate-500 dark:text-slate-400">
          {t('verify.noCode')}{' '}
          <button
            type="button"
            onClick={onResend}
            disabled={secondsLeft > 0 || resend.isPending}
            className="font-medium text-emerald-600 hover:text-emerald-500 disabled:cursor-not-allowed disabled:text-slate-400 dark:text-emerald-400 dark:hover:text-emerald-300 dark:disabled:text-slate-500"
          >
            {secondsLeft > 0 ? t('verify.resendIn', { seconds: secondsLeft }) : t('verify.resend')}
          </button>
        </p>
        <Button variant="ghost" size="sm" onClick={onBack}>
          <ArrowLeftIcon className="h-4 w-4" />
          {t('backToLogin')}
        </Button>
      </div>
    </AuthScreen>
  );
}

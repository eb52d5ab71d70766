import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import toast from 'react-hot-toast';
import { emailOnlyBody, messages, RESET_TOKEN_TTL_SECONDS } from '@terrafund/contracts';
import { paths } from '@/config/paths';
import { Button } from '@/components/ui/button';
import { ArrowLeftIcon, LockIcon, MailIcon } from 'lucide-react';
import { TextLink } from '@/components/ui/text-link';
import { onFormError } from '@/lib/form-errors';
import { useForgotPassword } from '../api/forgot-password';
import { AuthFooter, AuthLinkButton, AuthScreen, AuthSubmitButton, EmailField, EmailSentence } from './auth-screen';
import { useT } from '@/lib/i18n';

/** Asks for a reset link. The answer is the same for any address, so the page never says whether one exists. */
export function ForgotPasswordForm() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const forgot = useForgotPassword();
  const { t } = useT('auth');
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({ resolver: zodResolver(emailOnlyBody), defaultValues: { email: '' } });

  const onSubmit = handleSubmit((values) =>
    forgot.mutate(values, {
      onSuccess: () => {
        toast.success(messages.auth.resetEmailSent);
        setSentTo(values.email);
      },
      onError: onFormError(setError, { email: 'email' }, messages.toasts.forgotFailed),
    }),
  );

  if (sentTo) {
    return (
      <AuthScreen
        icon={<MailIcon className="h-6 w-6" />}
        title={t('forgot.sentTitle')}
        intro={
          <EmailSentence
            before={t('forgot.sentBefore')}
            email={sentTo}
            after={t('forgot.sentAfter', { minutes: RESET_TOKEN_TTL_SECONDS / 60 })}
          />
        }
      >
        <div className="flex flex-col gap-3">
          <AuthLinkButton to={paths.login.getHref()}>{t('backToLogin')}</AuthLinkButton>
          <Button variant="ghost" onClick={() => setSentTo(null)}>
            {t('forgot.otherEmail')}
          </Button>
        </div>
      </AuthScreen>
    );
  }

  return (
    <AuthScreen
      pageTitle={t('forgot.pageTitle')}
      icon={<LockIcon className="h-6 w-6" />}
      title={t('forgot.title')}
      intro={t('forgot.intro')}
    >
      <form onSubmit={onSubmit} noValidate className="space-y-5">
        <EmailField {...register('email')} error={errors.email?.message} />
        <AuthSubmitButton isLoading={forgot.isPending}>{t('forgot.submit')}</AuthSubmitButton>
      </form>

      <AuthFooter>
        <TextLink to={paths.login.getHref()} className="inline-flex items-center gap-1.5">
          <ArrowLeftIcon className="h-4 w-4" />
          {t('backToLogin')}
        </TextLink>
      </AuthFooter>
    </AuthScreen>
  );
}

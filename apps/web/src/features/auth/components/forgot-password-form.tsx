import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import toast from 'react-hot-toast';
import { emailOnlyBody, messages, RESET_TOKEN_TTL_SECONDS } from '@terrafund/contracts';
import { paths } from '@/config/paths';
import { Button, buttonClasses } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { ArrowLeftIcon, LockIcon, MailIcon } from 'lucide-react';
import { Input } from '@/components/ui/input';
import { TextLink } from '@/components/ui/text-link';
import { onFormError } from '@/lib/form-errors';
import { useForgotPassword } from '../api/forgot-password';
import { AuthHeader } from './auth-layout';
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
      <div>
        <AuthHeader icon={<MailIcon className="h-6 w-6" />} title={t('forgot.sentTitle')}>
          {t('forgot.sentBefore')} <span className="font-medium break-words text-slate-900 dark:text-white">{sentTo}</span>
          {t('forgot.sentAfter', { minutes: RESET_TOKEN_TTL_SECONDS / 60 })}
        </AuthHeader>
        <div className="flex flex-col gap-3">
          <Link to={paths.login.getHref()} className={buttonClasses({ size: 'lg', className: 'w-full' })}>
            {t('backToLogin')}
          </Link>
          <Button variant="ghost" onClick={() => setSentTo(null)}>
            {t('forgot.otherEmail')}
          </Button>
        </div>
      </div>
    );
  }

  return (
    <div>
      <title>{t('forgot.pageTitle')}</title>
      <AuthHeader icon={<LockIcon className="h-6 w-6" />} title={t('forgot.title')}>
        {t('forgot.intro')}
      </AuthHeader>

      <form onSubmit={onSubmit} noValidate className="space-y-5">
        <FormField label={t('email')} error={errors.email?.message}>
          {(control) => (
            <Input {...control} {...register('email')} type="email" autoComplete="email" placeholder={t('emailPlaceholder')} />
          )}
        </FormField>
        <Button type="submit" size="lg" className="w-full" isLoading={forgot.isPending}>
          {t('forgot.submit')}
        </Button>
      </form>

      <p className="mt-8 text-center text-sm">
        <TextLink to={paths.login.getHref()} className="inline-flex items-center gap-1.5">
          <ArrowLeftIcon className="h-4 w-4" />
          {t('backToLogin')}
        </TextLink>
      </p>
    </div>
  );
}

import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate } from 'react-router';
import toast from 'react-hot-toast';
import { loadPasswordStrength, messages, PASSWORD_RESET_REDIRECT_MS, resetPasswordForm } from '@terrafund/contracts';
import { paths } from '@/config/paths';
import { Button, buttonClasses } from '@/components/ui/button';
import { AlertTriangleIcon, CheckCircleIcon, LockIcon } from 'lucide-react';
import { NewPasswordFields } from '@/components/ui/new-password-fields';
import { TextLink } from '@/components/ui/text-link';
import { onFormError } from '@/lib/form-errors';
import { useResetPassword } from '../api/reset-password';
import { AuthHeader } from './auth-layout';
import { useT } from '@/lib/i18n';

/** Shown when /reset-password is opened without its token (docs/product.md §2.3 Layout). */
export function InvalidResetLink() {
  const { t } = useT('auth');
  return (
    <div>
      <title>{t('reset.invalidPageTitle')}</title>
      <AuthHeader icon={<AlertTriangleIcon className="h-6 w-6" />} iconTone="warning" title={t('reset.invalidTitle')}>
        {t('reset.invalidText')}
      </AuthHeader>
      <Link to={paths.forgotPassword.getHref()} className={buttonClasses({ size: 'lg', className: 'w-full' })}>
        {t('reset.requestNew')}
      </Link>
      <p className="mt-8 text-center text-sm">
        <TextLink to={paths.login.getHref()}>{t('backToLogin')}</TextLink>
      </p>
    </div>
  );
}

/** Sets a new password with the mailed token, then goes to /login after a short pause. */
export function ResetPasswordForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const [done, setDone] = useState(false);
  const reset = useResetPassword();
  const { t } = useT('auth');
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({ resolver: zodResolver(resetPasswordForm), defaultValues: { newPassword: '', confirmPassword: '' } });

  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => navigate(paths.login.getHref(), { replace: true }), PASSWORD_RESET_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [done, navigate]);

  const onSubmit = handleSubmit(({ newPassword }) =>
    reset.mutate(
      { token, newPassword },
      {
        onSuccess: () => {
          toast.success(messages.auth.passwordReset);
          setDone(true);
        },
        onError: onFormError(setError, { newPassword: null }, messages.toasts.resetFailed),
      },
    ),
  );

  if (done) {
    return (
      <div>
        <AuthHeader icon={<CheckCircleIcon className="h-6 w-6" />} title={t('reset.doneTitle')}>
          {t('reset.doneText')}
        </AuthHeader>
        <Link to={paths.login.getHref()} replace className={buttonClasses({ size: 'lg', className: 'w-full' })}>
          {t('reset.goToLogin')}
        </Link>
      </div>
    );
  }

  return (
    <div>
      <title>{t('reset.pageTitle')}</title>
      <AuthHeader icon={<LockIcon className="h-6 w-6" />} title={t('reset.title')}>
        {t('reset.intro')}
      </AuthHeader>

      {/* The strength rule's word lists start loading when the form is first used, not with the page. */}
      <form onSubmit={onSubmit} onFocus={() => void loadPasswordStrength()} noValidate className="space-y-5">
        <NewPasswordFields field="newPassword" label={t('reset.newPassword')} register={register} errors={errors} />
        <Button type="submit" size="lg" className="w-full" isLoading={reset.isPending}>
          {t('reset.submit')}
        </Button>
      </form>

      <p className="mt-8 text-center text-sm text-slate-500 dark:text-slate-400">
        {t('reset.expired')}{' '}
        <TextLink to={paths.forgotPassword.getHref()}>{t('reset.requestOne')}</TextLink>
      </p>
    </div>
  );
}

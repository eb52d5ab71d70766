import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from 'react-router';
import toast from 'react-hot-toast';
import { loadPasswordStrength, messages, PASSWORD_RESET_REDIRECT_MS, resetPasswordForm } from '@terrafund/contracts';
import { paths } from '@/config/paths';
import { AlertTriangleIcon, CheckCircleIcon, LockIcon } from 'lucide-react';
import { NewPasswordFields } from '@/components/ui/new-password-fields';
import { TextLink } from '@/components/ui/text-link';
import { onFormError } from '@/lib/form-errors';
import { useResetPassword } from '../api/reset-password';
import { AuthFooter, AuthLinkButton, AuthScreen, AuthSubmitButton } from './auth-screen';
import { useT } from '@/lib/i18n';

/** Shown when /reset-password is opened without its token (docs/product.md §2.3 Layout). */
export function InvalidResetLink() {
  const { t } = useT('auth');
  return (
    <AuthScreen
      pageTitle={t('reset.invalidPageTitle')}
      icon={<AlertTriangleIcon className="h-6 w-6" />}
      iconTone="warning"
      title={t('reset.invalidTitle')}
      intro={t('reset.invalidText')}
    >
      <AuthLinkButton to={paths.forgotPassword.getHref()}>{t('reset.requestNew')}</AuthLinkButton>
      <AuthFooter>
        <TextLink to={paths.login.getHref()}>{t('backToLogin')}</TextLink>
      </AuthFooter>
    </AuthScreen>
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
      <AuthScreen icon={<CheckCircleIcon className="h-6 w-6" />} title={t('reset.doneTitle')} intro={t('reset.doneText')}>
        <AuthLinkButton to={paths.login.getHref()} replace>
          {t('reset.goToLogin')}
        </AuthLinkButton>
      </AuthScreen>
    );
  }

  return (
    <AuthScreen pageTitle={t('reset.pageTitle')} icon={<LockIcon className="h-6 w-6" />} title={t('reset.title')} intro={t('reset.intro')}>
      {/* The strength rule's word lists start loading when the form is first used, not with the page. */}
      <form onSubmit={onSubmit} onFocus={() => void loadPasswordStrength()} noValidate className="space-y-5">
        <NewPasswordFields field="newPassword" label={t('reset.newPassword')} register={register} errors={errors} />
        <AuthSubmitButton isLoading={reset.isPending}>{t('reset.submit')}</AuthSubmitButton>
      </form>

      <AuthFooter prompt={t('reset.expired')}>
        <TextLink to={paths.forgotPassword.getHref()}>{t('reset.requestOne')}</TextLink>
      </AuthFooter>
    </AuthScreen>
  );
}

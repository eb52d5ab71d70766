import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useLocation } from 'react-router';
import { loginBody, messages } from '@terrafund/contracts';
import { paths } from '@/config/paths';
import { Checkbox } from '@/components/ui/checkbox';
import { FormField } from '@/components/ui/form-field';
import { PasswordInput } from '@/components/ui/password-input';
import { TextLink } from '@/components/ui/text-link';
import { onFormError } from '@/lib/form-errors';
import { needsSecondFactor, needsVerification, useLogin } from '../api/login';
import { AuthFooter, AuthScreen, AuthSubmitButton, EmailField } from './auth-screen';
import { TwoFactorForm } from './two-factor-form';
import { VerifyEmailForm } from './verify-email-form';
import { useT } from '@/lib/i18n';

/**
 * Sign in (docs/product.md §2.4 Public screens). Success stores the session and the sign-in guard moves on to the page that
 * was asked for; an unverified account gets the e-mail code screen instead, and an account with two-factor
 * sign-in the authenticator code screen.
 */
export function LoginForm() {
  const location = useLocation();
  const [verification, setVerification] = useState<{ email: string; remember: boolean } | null>(null);
  const [secondFactor, setSecondFactor] = useState<{ challenge: string; remember: boolean } | null>(null);
  const login = useLogin();
  const { t } = useT('auth');
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(loginBody),
    defaultValues: { email: '', password: '', rememberMe: false },
  });

  const onSubmit = handleSubmit((values) =>
    login.mutate(values, {
      onSuccess: (response) => {
        if (needsVerification(response)) setVerification({ email: response.email, remember: values.rememberMe });
        if (needsSecondFactor(response)) setSecondFactor({ challenge: response.challenge, remember: values.rememberMe });
      },
      onError: onFormError(setError, { email: 'email', password: 'password' }, messages.toasts.loginFailed),
    }),
  );

  if (secondFactor) {
    return <TwoFactorForm challenge={secondFactor.challenge} remember={secondFactor.remember} onBack={() => setSecondFactor(null)} />;
  }

  if (verification) {
    return <VerifyEmailForm email={verification.email} remember={verification.remember} onBack={() => setVerification(null)} />;
  }

  return (
    <AuthScreen pageTitle={t('login.pageTitle')} title={t('login.title')} intro={t('login.intro')}>
      {/* Posted, should it ever be sent without the app (scripts blocked): the password stays out of the address,
          the history and proxy logs, and the server answers with this page again (apps/api/src/plugins/web.ts). */}
      <form method="post" onSubmit={onSubmit} noValidate className="space-y-5">
        <EmailField {...register('email')} error={errors.email?.message} />

        <FormField
          label={t('password')}
          error={errors.password?.message}
          labelAside={
            <TextLink to={paths.forgotPassword.getHref()} className="text-sm">
              {t('login.forgot')}
            </TextLink>
          }
        >
          {(control) => <PasswordInput {...control} {...register('password')} autoComplete="current-password" />}
        </FormField>

        <Checkbox id="login-remember-me" label={t('login.remember')} {...register('rememberMe')} />

        <AuthSubmitButton isLoading={login.isPending}>{t('login.submit')}</AuthSubmitButton>
      </form>

      <AuthFooter prompt={t('login.noAccount')}>
        {/* The remembered page travels along, so signing up still ends where the visitor was going. */}
        <TextLink to={paths.register.getHref()} state={location.state}>
          {t('login.createAccount')}
        </TextLink>
      </AuthFooter>
    </AuthScreen>
  );
}

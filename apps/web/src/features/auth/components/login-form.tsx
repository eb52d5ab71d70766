import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useLocation } from 'react-router';
import { loginBody, messages } from '@terrafund/contracts';
import { paths } from '@/config/paths';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { TextLink } from '@/components/ui/text-link';
import { onFormError } from '@/lib/form-errors';
import { needsSecondFactor, needsVerification, useLogin } from '../api/login';
import { AuthHeader } from './auth-layout';
import { TwoFactorForm } from './two-factor-form';
import { VerifyEmailForm } from './verify-email-form';

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
    <div>
      <title>Sign in · Terrafund</title>
      <AuthHeader title="Welcome back">Sign in to your Terrafund account.</AuthHeader>

      <form onSubmit={onSubmit} noValidate className="space-y-5">
        <FormField label="Email" error={errors.email?.message}>
          {(control) => (
            <Input {...control} {...register('email')} type="email" autoComplete="email" placeholder="you@example.com" />
          )}
        </FormField>

        <FormField
          label="Password"
          error={errors.password?.message}
          labelAside={<TextLink to={paths.forgotPassword.getHref()} className="text-sm">Forgot password?</TextLink>}
        >
          {(control) => <PasswordInput {...control} {...register('password')} autoComplete="current-password" />}
        </FormField>

        <Checkbox id="login-remember-me" label="Remember me" {...register('rememberMe')} />

        <Button type="submit" size="lg" className="w-full" isLoading={login.isPending}>
          Sign in
        </Button>
      </form>

      <p className="mt-8 text-center text-sm text-slate-500 dark:text-slate-400">
        Don&apos;t have an account?{' '}
        {/* The remembered page travels along, so signing up still ends where the visitor was going. */}
        <TextLink to={paths.register.getHref()} state={location.state}>
          Create an account
        </TextLink>
      </p>
    </div>
  );
}

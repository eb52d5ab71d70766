import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate } from 'react-router';
import toast from 'react-hot-toast';
import { messages, PASSWORD_RESET_REDIRECT_MS, resetPasswordForm } from '@terrafund/contracts';
import { paths } from '@/config/paths';
import { Button, buttonClasses } from '@/components/ui/button';
import { AlertTriangleIcon, CheckCircleIcon, LockIcon } from 'lucide-react';
import { NewPasswordFields } from '@/components/ui/new-password-fields';
import { TextLink } from '@/components/ui/text-link';
import { onFormError } from '@/lib/form-errors';
import { useResetPassword } from '../api/reset-password';
import { AuthHeader } from './auth-layout';

/** Shown when /reset-password is opened without its token (docs/product.md §2.3 Layout). */
export function InvalidResetLink() {
  return (
    <div>
      <title>Invalid reset link · Terrafund</title>
      <AuthHeader icon={<AlertTriangleIcon className="h-6 w-6" />} iconTone="warning" title="Invalid Reset Link">
        This password reset link is incomplete or no longer valid. Request a new one and use the link in the latest email.
      </AuthHeader>
      <Link to={paths.forgotPassword.getHref()} className={buttonClasses({ size: 'lg', className: 'w-full' })}>
        Request a new reset link
      </Link>
      <p className="mt-8 text-center text-sm">
        <TextLink to={paths.login.getHref()}>Back to login</TextLink>
      </p>
    </div>
  );
}

/** Sets a new password with the mailed token, then goes to /login after a short pause. */
export function ResetPasswordForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const [done, setDone] = useState(false);
  const reset = useResetPassword();
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
        <AuthHeader icon={<CheckCircleIcon className="h-6 w-6" />} title="Password updated">
          Your password has been reset. Taking you to the sign-in page…
        </AuthHeader>
        <Link to={paths.login.getHref()} replace className={buttonClasses({ size: 'lg', className: 'w-full' })}>
          Go to login now
        </Link>
      </div>
    );
  }

  return (
    <div>
      <title>Reset password · Terrafund</title>
      <AuthHeader icon={<LockIcon className="h-6 w-6" />} title="Choose a new password">
        Choose a strong password you do not use elsewhere. Changing it signs you out on your other devices.
      </AuthHeader>

      <form onSubmit={onSubmit} noValidate className="space-y-5">
        <NewPasswordFields field="newPassword" label="New password" register={register} errors={errors} />
        <Button type="submit" size="lg" className="w-full" isLoading={reset.isPending}>
          Reset password
        </Button>
      </form>

      <p className="mt-8 text-center text-sm text-slate-500 dark:text-slate-400">
        Link expired?{' '}
        <TextLink to={paths.forgotPassword.getHref()}>Request a new one</TextLink>
      </p>
    </div>
  );
}

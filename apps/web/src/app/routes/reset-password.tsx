import { useSearchParams } from 'react-router';
import { AuthLayout } from '@/features/auth/components/auth-layout';
import { InvalidResetLink, ResetPasswordForm } from '@/features/auth/components/reset-password-form';

export default function ResetPasswordRoute() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  return <AuthLayout>{token ? <ResetPasswordForm token={token} /> : <InvalidResetLink />}</AuthLayout>;
}

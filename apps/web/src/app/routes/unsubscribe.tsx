import { useSearchParams } from 'react-router';
import { AuthLayout } from '@/features/auth/components/auth-layout';
import { UnsubscribeCard } from '@/features/profile/components/unsubscribe-card';

/** /unsubscribe?token=…: public, the sign-in screens' frame (no sidebar). */
export default function UnsubscribeRoute() {
  const [searchParams] = useSearchParams();
  return (
    <AuthLayout>
      <UnsubscribeCard token={searchParams.get('token')} />
    </AuthLayout>
  );
}

import { Link } from 'react-router';
import type { User } from '@terrafund/contracts';
import { paths } from '@/config/paths';
import { Alert } from '@/components/ui/alert';
import { buttonClasses } from '@/components/ui/button';

const unlocks = 'Completing KYC verification unlocks all platform features, including investing in projects and withdrawing funds.';

/** Whether the account is verified, and what to do when it is not (spec section 4, the dashboard notice). */
export function KycNotice({ user }: { user: Pick<User, 'kycVerified' | 'kycStatus'> }) {
  if (user.kycVerified) {
    return (
      <Alert tone="success" title="Your account is verified">
        Your identity has been confirmed. Every platform feature is open to you.
      </Alert>
    );
  }

  const kycLink = (label: string) => (
    <Link to={paths.kyc.getHref()} className={buttonClasses({ size: 'sm', variant: 'secondary' })}>
      {label}
    </Link>
  );

  if (user.kycStatus === 'pending') {
    return (
      <Alert tone="warning" title="Your KYC verification is in progress" action={kycLink('View KYC status')}>
        We are reviewing your documents; this usually takes 1-2 business days. {unlocks}
      </Alert>
    );
  }

  return (
    <Alert tone="warning" title="Please complete your KYC verification" action={kycLink('Complete KYC now')}>
      {user.kycStatus === 'rejected' && 'Your last submission was not approved; please review it and submit again. '}
      {unlocks}
    </Alert>
  );
}

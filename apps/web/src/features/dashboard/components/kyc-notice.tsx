import { Link } from 'react-router';
import type { User } from '@terrafund/contracts';
import { paths } from '@/config/paths';
import { Alert } from '@/components/ui/alert';
import { buttonClasses } from '@/components/ui/button';

// The spec's line, as it words it: which features are gated is not listed here.
const unlocks = 'Completing KYC verification unlocks all platform features.';

/**
 * Whether the account is verified, and what to do when it is not (docs/product.md §4.1 Statuses, the dashboard notice):
 * verified reads "Your account is verified"; every other state reads "Please complete your KYC verification",
 * says that completing it unlocks all platform features, and links to /kyc ("Complete KYC now").
 */
export function KycNotice({ user }: { user: Pick<User, 'kycVerified' | 'kycStatus'> }) {
  if (user.kycVerified) {
    return (
      <Alert tone="success" title="Your account is verified">
        Your identity has been confirmed. Every platform feature is open to you.
      </Alert>
    );
  }

  const status =
    user.kycStatus === 'pending'
      ? 'Your documents are being reviewed; this usually takes 1-2 business days. '
      : user.kycStatus === 'rejected'
        ? 'Your last submission was not approved; please review it and submit again. '
        : '';
  return (
    <Alert
      tone="warning"
      title="Please complete your KYC verification"
      action={
        <Link to={paths.kyc.getHref()} className={buttonClasses({ size: 'sm', variant: 'secondary' })}>
          Complete KYC now
        </Link>
      }
    >
      {status}
      {unlocks}
    </Alert>
  );
}

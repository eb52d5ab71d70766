import { Link } from 'react-router';
import type { User } from '@terrafund/contracts';
import { paths } from '@/config/paths';
import { Alert } from '@/components/ui/alert';
import { buttonClasses } from '@/components/ui/button';
import { useT } from '@/lib/i18n';

/**
 * Whether the account is verified, and what to do when it is not (docs/product.md §4.1 Statuses, the dashboard notice):
 * verified reads "Your account is verified"; every other state reads "Please complete your KYC verification",
 * says that completing it unlocks all platform features, and links to /kyc ("Complete KYC now").
 */
export function KycNotice({ user }: { user: Pick<User, 'kycVerified' | 'kycStatus'> }) {
  const { t } = useT('dashboard');
  if (user.kycVerified) {
    return (
      <Alert tone="success" title={t('kycNotice.verifiedTitle')}>
        {t('kycNotice.verifiedText')}
      </Alert>
    );
  }

  const status =
    user.kycStatus === 'pending'
      ? t('kycNotice.pending')
      : user.kycStatus === 'rejected'
        ? t('kycNotice.rejected')
        : '';
  return (
    <Alert
      tone="warning"
      title={t('kycNotice.title')}
      action={
        <Link to={paths.kyc.getHref()} className={buttonClasses({ size: 'sm', variant: 'secondary' })}>
          {t('kycNotice.action')}
        </Link>
      }
    >
      {status}
      {/* The spec's line, as it words it: which features are gated is not listed here. */}
      {t('kycNotice.unlocks')}
    </Alert>
  );
}

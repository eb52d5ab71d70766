import type { KycInfo, User } from '@terrafund/contracts';
import { PageHeader } from '@/components/ui/page-header';
import { useUser } from '@/lib/auth';
import { useT } from '@/lib/i18n';
import { useSubmitKyc } from '../api/submit-kyc';
import { KycApprovedStatus, KycPendingStatus, KycRejectedStatus } from './kyc-status';
import { KycWizard } from './kyc-wizard';

/** GET /users/profile carries the KYC object as well (contracts `UserWithKyc`). */
type UserWithOptionalKyc = User & { kyc?: KycInfo | null };

/** /kyc: the member's verification status, and the wizard while there is something to submit. */
export function KycPage() {
  const user: UserWithOptionalKyc = useUser();
  const submission = useSubmitKyc();
  const { t } = useT('kyc');
  const { kycStatus } = user;

  // While a submission is on its way the status already reads pending (docs/product.md §4.1 Statuses). The wizard
  // stays mounted out of sight, so that a refused submission gives the member back what they typed.
  const awaitingAnswer = submission.isPending;
  const showWizard = kycStatus === 'not_started' || kycStatus === 'rejected' || awaitingAnswer;

  let status = null;
  if (kycStatus === 'pending') status = <KycPendingStatus submittedAt={user.kyc?.kycSubmittedAt} />;
  else if (kycStatus === 'approved') status = <KycApprovedStatus />;
  else if (kycStatus === 'rejected') status = <KycRejectedStatus reason={user.kyc?.kycRejectionReason} />;

  return (
    <div className="space-y-6">
      <title>{t('page.documentTitle')}</title>
      <PageHeader
        title={t('page.title')}
        description={t('page.description')}
      />
      {status}
      {showWizard && (
        <div hidden={kycStatus === 'pending'}>
          <KycWizard user={user} kyc={user.kyc} submission={submission} />
        </div>
      )}
    </div>
  );
}

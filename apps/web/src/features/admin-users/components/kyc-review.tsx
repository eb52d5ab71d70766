import { COUNTRY_OPTIONS, ID_TYPE_LABELS, type UserWithKyc } from '@terrafund/contracts';
import { Alert } from '@/components/ui/alert';
import { useUser } from '@/lib/auth';
import { formatDate, formatDateTime } from '@/lib/format';
import { KycDecision } from './kyc-decision';
import { KycDocuments } from './kyc-documents';
import { KycStatusBadge } from './kyc-status-badge';
import { DetailList, NotProvided, SectionCard } from './section-card';

function countryName(code: string | null) {
  if (!code) return <NotProvided />;
  return COUNTRY_OPTIONS.find((option) => option.value === code)?.label ?? code;
}

const text = (value: string | null) => value || <NotProvided />;

/** The KYC submission under review: its fields, its documents and, while pending, the decision. */
export function KycReview({ user, className }: { user: UserWithKyc; className?: string }) {
  const admin = useUser();
  const { kyc } = user;
  const name = `${user.firstName} ${user.lastName}`;
  // The server refuses an admin's decision on their own KYC, so it is not offered.
  const canDecide = user.kycStatus === 'pending' && user._id !== admin._id;

  return (
    <SectionCard title="KYC information" aside={<KycStatusBadge status={user.kycStatus} />} className={className}>
      <div className="space-y-6">
        {canDecide && (
          <Alert tone="warning" title="Awaiting your review" action={<KycDecision user={user} />}>
            Check the details and documents below, then approve or reject the verification.
          </Alert>
        )}
        {user.kycStatus === 'rejected' && kyc?.kycRejectionReason && (
          <Alert tone="danger" title="Rejection reason">
            <span className="break-words whitespace-pre-line">{kyc.kycRejectionReason}</span>
          </Alert>
        )}

        {kyc ? (
          <DetailList
            items={[
              { label: 'Date of birth', value: kyc.dateOfBirth ? formatDate(kyc.dateOfBirth) : <NotProvided /> },
              { label: 'Nationality', value: countryName(kyc.nationality) },
              { label: 'Address', value: text(kyc.address) },
              { label: 'City', value: text(kyc.city) },
              { label: 'State', value: text(kyc.state) },
              { label: 'Postal code', value: text(kyc.postalCode) },
              { label: 'Country', value: countryName(kyc.country) },
              { label: 'ID type', value: kyc.idType ? ID_TYPE_LABELS[kyc.idType] : <NotProvided /> },
              { label: 'ID number', value: text(kyc.idNumber) },
              { label: 'Submitted at', value: kyc.kycSubmittedAt ? formatDateTime(kyc.kycSubmittedAt) : <NotProvided>Not submitted</NotProvided> },
              ...(kyc.kycReviewedAt ? [{ label: 'Reviewed at', value: formatDateTime(kyc.kycReviewedAt) }] : []),
            ]}
          />
        ) : (
          <p className="text-sm text-slate-500 dark:text-slate-400">This user has not submitted any KYC information yet.</p>
        )}

        <div>
          <h3 className="mb-3 text-sm font-semibold text-slate-900 dark:text-white">Documents</h3>
          <KycDocuments documents={kyc?.documents ?? []} owner={name} />
        </div>
      </div>
    </SectionCard>
  );
}

import { COUNTRY_OPTIONS, type UserWithKyc } from '@terrafund/contracts';
import { Alert } from '@/components/ui/alert';
import { useUser } from '@/lib/auth';
import { formatDate, formatDateTime } from '@/lib/format';
import { KycDecision } from './kyc-decision';
import { KycDocuments } from './kyc-documents';
import { KycStatusBadge } from './kyc-status-badge';
import { DetailList, NotProvided, SectionCard } from './section-card';
import { i18n, useT } from '@/lib/i18n';

function countryName(code: string | null) {
  if (!code) return <NotProvided />;
  const known = COUNTRY_OPTIONS.find((option) => option.value === code);
  return known ? i18n.t(`admin:users.kyc.countries.${known.value}`) : code;
}

const text = (value: string | null) => value || <NotProvided />;

/** The KYC submission under review: its fields, its documents and, while pending, the decision. */
export function KycReview({ user, className }: { user: UserWithKyc; className?: string }) {
  const admin = useUser();
  const { t } = useT('admin');
  const { kyc } = user;
  const name = `${user.firstName} ${user.lastName}`;
  // The server refuses an admin's decision on their own KYC, and any change to a closed account, so neither is offered.
  const canDecide = user.kycStatus === 'pending' && user._id !== admin._id && !user.closedAt;

  return (
    <SectionCard title={t('users.kyc.title')} aside={<KycStatusBadge status={user.kycStatus} />} className={className}>
      <div className="space-y-6">
        {canDecide && (
          <Alert tone="warning" title={t('users.kyc.awaitingTitle')} action={<KycDecision user={user} />}>
            {t('users.kyc.awaitingText')}
          </Alert>
        )}
        {user.kycStatus === 'rejected' && kyc?.kycRejectionReason && (
          <Alert tone="danger" title={t('users.kyc.rejectionReason')}>
            <span className="break-words whitespace-pre-line">{kyc.kycRejectionReason}</span>
          </Alert>
        )}

        {kyc ? (
          <DetailList
            items={[
              { label: t('users.kyc.fields.dateOfBirth'), value: kyc.dateOfBirth ? formatDate(kyc.dateOfBirth) : <NotProvided /> },
              { label: t('users.kyc.fields.nationality'), value: countryName(kyc.nationality) },
              { label: t('users.kyc.fields.address'), value: text(kyc.address) },
              { label: t('users.kyc.fields.city'), value: text(kyc.city) },
              { label: t('users.kyc.fields.state'), value: text(kyc.state) },
              { label: t('users.kyc.fields.postalCode'), value: text(kyc.postalCode) },
              { label: t('users.kyc.fields.country'), value: countryName(kyc.country) },
              { label: t('users.kyc.fields.idType'), value: kyc.idType ? t(`users.kyc.idTypes.${kyc.idType}`) : <NotProvided /> },
              { label: t('users.kyc.fields.idNumber'), value: text(kyc.idNumber) },
              { label: t('users.kyc.fields.submittedAt'), value: kyc.kycSubmittedAt ? formatDateTime(kyc.kycSubmittedAt) : <NotProvided>{t('users.kyc.notSubmitted')}</NotProvided> },
              ...(kyc.kycReviewedAt ? [{ label: t('users.kyc.fields.reviewedAt'), value: formatDateTime(kyc.kycReviewedAt) }] : []),
            ]}
          />
        ) : (
          <p className="text-sm text-slate-500 dark:text-slate-400">{t('users.kyc.none')}</p>
        )}

        <div>
          <h3 className="mb-3 text-sm font-semibold text-slate-900 dark:text-white">{t('users.kyc.documents')}</h3>
          <KycDocuments documents={kyc?.documents ?? []} owner={name} />
        </div>
      </div>
    </SectionCard>
  );
}

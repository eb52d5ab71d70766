import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { KycStatus, User } from '@terrafund/contracts';
import { paths } from '@/config/paths';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { buttonClasses } from '@/components/ui/button';
import { formatDate } from '@/lib/format';
import { useT } from '@/lib/i18n';
import { ProfileCard } from './profile-card';
import { wrappingButton } from './section-header';

/** Each KYC status's badge tone, and whether it leads to /kyc (its texts: the profile catalogue's status.badges/actions). */
const kycBadges: Record<KycStatus, { tone: BadgeTone; action: boolean }> = {
  not_started: { tone: 'neutral', action: true },
  pending: { tone: 'warning', action: true },
  approved: { tone: 'success', action: false },
  rejected: { tone: 'danger', action: true },
};

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-3 first:pt-0 last:pb-0">
      <dt className="text-sm text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="text-right text-sm font-medium text-slate-900 dark:text-white">{children}</dd>
    </div>
  );
}

/** Spec section 2: the membership level or "No active membership", and the KYC status. */
export function AccountStatusCard({ user }: { user: User }) {
  const badge = kycBadges[user.kycStatus];
  const { t } = useT('profile');
  return (
    <ProfileCard title={t('status.title')}>
      <div className="px-5 py-5 sm:px-6">
        <dl className="divide-y divide-slate-200 dark:divide-slate-800">
          <Row label={t('status.membership')}>
            {user.membershipLevel ? (
              <>
                {capitalize(user.membershipLevel)}
                {user.membershipEndDate && (
                  <span className="block text-xs font-normal text-slate-500 dark:text-slate-400">
                    {t('status.until', { date: formatDate(user.membershipEndDate) })}
                  </span>
                )}
              </>
            ) : (
              <span className="font-normal text-slate-500 dark:text-slate-400">{t('status.noMembership')}</span>
            )}
          </Row>
          <Row label={t('status.kyc')}>
            <Badge tone={badge.tone}>{t(`status.badges.${user.kycStatus}`)}</Badge>
          </Row>
          <Row label={t('status.memberSince')}>{formatDate(user.createdAt)}</Row>
        </dl>
        {badge.action && (
          <Link to={paths.kyc.getHref()} className={buttonClasses({ variant: 'secondary', size: 'sm', className: `mt-5 w-full ${wrappingButton}` })}>
            {t(`status.actions.${user.kycStatus}`)}
          </Link>
        )}
      </div>
    </ProfileCard>
  );
}

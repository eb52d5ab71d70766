import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { KycStatus, User } from '@terrafund/contracts';
import { paths } from '@/config/paths';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { formatDate } from '@/lib/format';
import { SectionHeader } from './section-header';

const kycBadges: Record<KycStatus, { label: string; tone: BadgeTone; action?: string }> = {
  not_started: { label: 'Not started', tone: 'neutral', action: 'Complete verification' },
  pending: { label: 'Pending review', tone: 'warning', action: 'View status' },
  approved: { label: 'Approved', tone: 'success' },
  rejected: { label: 'Rejected', tone: 'danger', action: 'Review and resubmit' },
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
  return (
    <Card>
      <SectionHeader title="Account status" />
      <div className="px-5 py-5 sm:px-6">
        <dl className="divide-y divide-slate-200 dark:divide-slate-800">
          <Row label="Membership">
            {user.membershipLevel ? (
              <>
                {capitalize(user.membershipLevel)}
                {user.membershipEndDate && (
                  <span className="block text-xs font-normal text-slate-500 dark:text-slate-400">
                    Until {formatDate(user.membershipEndDate)}
                  </span>
                )}
              </>
            ) : (
              <span className="font-normal text-slate-500 dark:text-slate-400">No active membership</span>
            )}
          </Row>
          <Row label="KYC status">
            <Badge tone={badge.tone}>{badge.label}</Badge>
          </Row>
          <Row label="Member since">{formatDate(user.createdAt)}</Row>
        </dl>
        {badge.action && (
          <Link to={paths.kyc.getHref()} className={buttonClasses({ variant: 'secondary', size: 'sm', className: 'mt-5 w-full' })}>
            {badge.action}
          </Link>
        )}
      </div>
    </Card>
  );
}

import type { ReactNode } from 'react';
import type { KycStatus, Role } from '@terrafund/contracts';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { i18n, useT } from '@/lib/i18n';

/** Read while a component that speaks the admin namespace draws, so it follows the language it draws in. */
export const kycStatusLabel = (status: KycStatus) => i18n.t(`admin:users.kycStatuses.${status}`);

const kycTones: Record<KycStatus, BadgeTone> = {
  not_started: 'neutral',
  pending: 'warning',
  approved: 'success',
  rejected: 'danger',
};

/** A user's KYC status; `prefix` says what the pill is about where no column header does. */
export function KycStatusBadge({ status, prefix }: { status: KycStatus; prefix?: ReactNode }) {
  const { t } = useT('admin');
  return (
    <Badge tone={kycTones[status]}>
      {prefix}
      {t(`users.kycStatuses.${status}`)}
    </Badge>
  );
}

export function VerifiedBadge({ verified }: { verified: boolean }) {
  const { t } = useT('admin');
  return <Badge tone={verified ? 'success' : 'neutral'}>{verified ? t('users.badges.verified') : t('users.badges.unverified')}</Badge>;
}

export function RoleBadge({ role }: { role: Role }) {
  const { t } = useT('admin');
  return <Badge tone={role === 'admin' ? 'info' : 'neutral'}>{t(`users.roles.${role}`)}</Badge>;
}

/** A closed account (issue 34): its personal data erased, its legal records kept, never reopened. */
export function ClosedBadge() {
  const { t } = useT('admin');
  return <Badge tone="danger">{t('users.badges.closed')}</Badge>;
}

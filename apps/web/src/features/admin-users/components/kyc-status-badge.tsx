import type { ReactNode } from 'react';
import type { KycStatus, Role } from '@terrafund/contracts';
import { Badge, type BadgeTone } from '@/components/ui/badge';

export const KYC_STATUS_LABELS: Record<KycStatus, string> = {
  not_started: 'Not started',
  pending: 'Pending',
  approved: 'Approved',
  rejected: 'Rejected',
};

const kycTones: Record<KycStatus, BadgeTone> = {
  not_started: 'neutral',
  pending: 'warning',
  approved: 'success',
  rejected: 'danger',
};

/** A user's KYC status; `prefix` says what the pill is about where no column header does. */
export function KycStatusBadge({ status, prefix }: { status: KycStatus; prefix?: ReactNode }) {
  return (
    <Badge tone={kycTones[status]}>
      {prefix}
      {KYC_STATUS_LABELS[status]}
    </Badge>
  );
}

export function VerifiedBadge({ verified }: { verified: boolean }) {
  return <Badge tone={verified ? 'success' : 'neutral'}>{verified ? 'Verified' : 'Unverified'}</Badge>;
}

export const ROLE_LABELS: Record<Role, string> = { user: 'User', admin: 'Admin' };

export function RoleBadge({ role }: { role: Role }) {
  return <Badge tone={role === 'admin' ? 'info' : 'neutral'}>{ROLE_LABELS[role]}</Badge>;
}

import type { UserWithKyc } from '@terrafund/contracts';
import { formatDate, formatDateTime, formatUsd } from '@/lib/format';
import { RoleBadge, VerifiedBadge } from './kyc-status-badge';
import { DetailList, NotProvided, SectionCard } from './section-card';
import { UserAvatar } from './user-avatar';

function membershipText(user: UserWithKyc) {
  if (!user.membershipLevel) return <NotProvided>No active membership</NotProvided>;
  const level = user.membershipLevel.charAt(0).toUpperCase() + user.membershipLevel.slice(1);
  if (!user.membershipStartDate || !user.membershipEndDate) return level;
  return (
    <>
      {level}
      <span className="block text-xs text-slate-500 dark:text-slate-400">
        {formatDate(user.membershipStartDate)} – {formatDate(user.membershipEndDate)}
      </span>
    </>
  );
}

/** Who the user is: name, e-mail, role, member since, last login and membership (docs/product.md §2.5 Member screens, User detail). */
export function ProfileCard({ user, className }: { user: UserWithKyc; className?: string }) {
  const name = `${user.firstName} ${user.lastName}`;
  return (
    <SectionCard title="Profile" className={className}>
      <div className="flex min-w-0 items-center gap-4">
        <UserAvatar firstName={user.firstName} lastName={user.lastName} size="lg" />
        <div className="min-w-0">
          <p className="truncate text-lg font-semibold text-slate-900 dark:text-white">{name}</p>
          <a
            href={`mailto:${user.email}`}
            className="block truncate text-sm text-emerald-600 hover:text-emerald-500 focus-visible:outline-2 focus-visible:outline-emerald-500 dark:text-emerald-400"
          >
            {user.email}
          </a>
          <div className="mt-2 flex flex-wrap gap-1.5">
            <RoleBadge role={user.role} />
            <VerifiedBadge verified={user.kycVerified} />
          </div>
        </div>
      </div>
      <DetailList
        className="mt-6 sm:grid-cols-2 lg:grid-cols-1 xl:grid-cols-2"
        items={[
          { label: 'Member since', value: formatDate(user.createdAt) },
          { label: 'Last login', value: user.lastLogin ? formatDateTime(user.lastLogin) : <NotProvided>Never</NotProvided> },
          { label: 'Membership', value: membershipText(user) },
          { label: 'Wallet balance', value: formatUsd(user.balance, 0) },
          { label: 'Phone', value: user.phone || <NotProvided /> },
          { label: 'Email address', value: user.isEmailVerified ? 'Confirmed' : 'Not confirmed' },
        ]}
      />
    </SectionCard>
  );
}

import type { UserWithKyc } from '@terrafund/contracts';
import { formatDate, formatDateTime, formatUsd } from '@/lib/format';
import { ClosedBadge, RoleBadge, VerifiedBadge } from './kyc-status-badge';
import { DetailList, NotProvided, SectionCard } from './section-card';
import { UserAvatar } from './user-avatar';
import { i18n, useT } from '@/lib/i18n';

function membershipText(user: UserWithKyc) {
  if (!user.membershipLevel) return <NotProvided>{i18n.t('admin:users.profile.noMembership')}</NotProvided>;
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
  const { t } = useT('admin');
  return (
    <SectionCard title={t('users.profile.title')} className={className}>
      <div className="flex min-w-0 items-center gap-4">
        <UserAvatar firstName={user.firstName} lastName={user.lastName} size="lg" />
        <div className="min-w-0">
          <p className="truncate text-lg font-semibold text-slate-900 dark:text-white">{name}</p>
          {/* A closed account's address is its tombstone (closed-<id>@invalid): shown, but not a link to write to. */}
          {user.closedAt ? (
            <p className="truncate text-sm text-slate-500 dark:text-slate-400">{user.email}</p>
          ) : (
            <a
              href={`mailto:${user.email}`}
              className="block truncate text-sm text-emerald-600 hover:text-emerald-500 focus-visible:outline-2 focus-visible:outline-emerald-500 dark:text-emerald-400"
            >
              {user.email}
            </a>
          )}
          <div className="mt-2 flex flex-wrap gap-1.5">
            {user.closedAt && <ClosedBadge />}
            <RoleBadge role={user.role} />
            <VerifiedBadge verified={user.kycVerified} />
          </div>
        </div>
      </div>
      <DetailList
        className="mt-6 sm:grid-cols-2 lg:grid-cols-1 xl:grid-cols-2"
        items={[
          ...(user.closedAt ? [{ label: t('users.profile.closedOn'), value: formatDateTime(user.closedAt) }] : []),
          { label: t('users.profile.memberSince'), value: formatDate(user.createdAt) },
          { label: t('users.profile.lastLogin'), value: user.lastLogin ? formatDateTime(user.lastLogin) : <NotProvided>{t('users.profile.never')}</NotProvided> },
          { label: t('users.profile.membership'), value: membershipText(user) },
          { label: t('users.profile.balance'), value: formatUsd(user.balance, 0) },
          { label: t('users.profile.phone'), value: user.phone || <NotProvided /> },
          { label: t('users.profile.email'), value: user.isEmailVerified ? t('users.profile.confirmed') : t('users.profile.notConfirmed') },
        ]}
      />
    </SectionCard>
  );
}

import { TitleLines } from '@/components/ui/title-lines';
import { Link } from 'react-router';
import type { UserWithKyc } from '@terrafund/contracts';
import { paths } from '@/config/paths';
import { buttonClasses } from '@/components/ui/button';
import { ChevronRightIcon, MailIcon } from 'lucide-react';
import { StackingTable } from '@/components/ui/stacking-table';
import { cn } from '@/lib/cn';
import { formatDate } from '@/lib/format';
import { ClosedBadge, KycStatusBadge, RoleBadge, VerifiedBadge } from './kyc-status-badge';
import { UserAvatar } from './user-avatar';
import { useT } from '@/lib/i18n';

// Below xl (where the sidebar leaves too little room for six columns) each row is a card: the cells
// flow as wrapped items instead of columns.
const td = 'xl:table-cell xl:px-4 xl:py-4 xl:align-middle';

/**
 * The users of one page. From xl up a table; below it every row stacks into a card (name and actions,
 * then the status pills, then the date) so that nothing scrolls sideways on a phone.
 */
export function UsersTable({ users, caption }: { users: UserWithKyc[]; caption: string }) {
  const { t } = useT('admin');
  const columns = ['user', 'role', 'kycStatus', 'verified', 'memberSince', 'actions'].map((column) => t(`users.table.${column}`));
  return (
    <StackingTable caption={caption} columns={columns} actions from="xl">
      {users.map((user) => (
        <UserRow key={user._id} user={user} />
      ))}
    </StackingTable>
  );
}

function UserRow({ user }: { user: UserWithKyc }) {
  const name = `${user.firstName} ${user.lastName}`;
  const { t } = useT('admin');
  return (
    <tr className="relative flex flex-wrap items-center gap-2 px-4 py-4 transition-colors hover:bg-slate-50 sm:px-5 xl:table-row xl:p-0 dark:hover:bg-slate-800/40">
      <td className={cn(td, 'mb-1 w-full min-w-0 pr-28 xl:mb-0 xl:w-auto')}>
        <div className="flex min-w-0 items-center gap-3 xl:max-w-72 2xl:max-w-sm">
          <UserAvatar firstName={user.firstName} lastName={user.lastName} />
          <TitleLines title={name} detail={user.email} />
        </div>
      </td>
      <td className={td}>
        <span className="inline-flex flex-wrap gap-1.5">
          {user.closedAt && <ClosedBadge />}
          <RoleBadge role={user.role} />
        </span>
      </td>
      <td className={td}>
        <KycStatusBadge status={user.kycStatus} prefix={<span className="xl:hidden">{t('users.table.kycPrefix')}</span>} />
      </td>
      <td className={td}>
        <VerifiedBadge verified={user.kycVerified} />
      </td>
      <td className={cn(td, 'w-full text-slate-600 xl:w-auto xl:whitespace-nowrap dark:text-slate-300')}>
        <span className="text-slate-500 xl:hidden dark:text-slate-400">{t('users.table.memberSincePrefix')} </span>
        <time dateTime={user.createdAt}>{formatDate(user.createdAt)}</time>
      </td>
      {/* On a card the actions sit at the top right, beside the name. */}
      <td className={cn(td, 'absolute top-4 right-4 sm:right-5 xl:static xl:text-right')}>
        <div className="flex items-center justify-end gap-1.5">
          {/* A closed account's address is a tombstone: nobody reads it. */}
          {!user.closedAt && (
            <a
              href={`mailto:${user.email}`}
              aria-label={t('users.table.email', { name })}
              title={t('users.table.email', { name })}
              className={buttonClasses({ variant: 'ghost', size: 'icon', className: 'h-9 w-9' })}
            >
              <MailIcon className="h-4 w-4" />
            </a>
          )}
          <Link
            to={paths.adminUser.getHref(user._id)}
            aria-label={t('users.table.viewLabel', { name })}
            className={buttonClasses({ variant: 'outline', size: 'sm', className: 'pr-2' })}
          >
            {t('users.table.view')}
            <ChevronRightIcon className="h-4 w-4" />
          </Link>
        </div>
      </td>
    </tr>
  );
}

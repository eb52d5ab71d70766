import { Link } from 'react-router';
import { messages } from '@terrafund/contracts';
import { paths } from '@/config/paths';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { AlertTriangleIcon, ArrowLeftIcon, UserIcon } from 'lucide-react';
import { PageHeader } from '@/components/ui/page-header';
import { Spinner } from '@/components/ui/spinner';
import { TextLink } from '@/components/ui/text-link';
import { isApiError } from '@/lib/api-client';
import { useUserDetail } from '../api/get-user-detail';
import { AuditLog } from './audit-log';
import { KycReview } from './kyc-review';
import { ProfileCard } from './profile-card';
import { RecentTransactions } from './recent-transactions';

function BackToUsers() {
  return (
    <TextLink to={paths.adminUsers.getHref()} className="inline-flex items-center gap-1.5 text-sm">
      <ArrowLeftIcon className="h-4 w-4" />
      Back to Users
    </TextLink>
  );
}

/** One user as an admin sees them: profile, KYC with its documents and decision, transactions, audit log. */
export function UserDetail({ userId }: { userId: string }) {
  const detail = useUserDetail(userId);

  if (detail.isPending) {
    return (
      <div className="flex justify-center py-24">
        <Spinner size="lg" label="Loading user" />
      </div>
    );
  }

  if (detail.isError) {
    const notFound = isApiError(detail.error) && detail.error.status === 404;
    return (
      <Card>
        <title>{`${notFound ? messages.users.notFound : 'User details'} · Terrafund`}</title>
        <EmptyState
          className="py-16"
          icon={notFound ? <UserIcon className="h-5 w-5" /> : <AlertTriangleIcon className="h-5 w-5" />}
          title={<span role="alert">{notFound ? messages.users.notFound : messages.kyc.loadUserFailed}</span>}
          description={notFound ? 'This user does not exist or has been deleted.' : undefined}
          action={
            <div className="flex flex-wrap justify-center gap-2">
              {!notFound && (
                <Button variant="outline" onClick={() => void detail.refetch()} isLoading={detail.isFetching}>
                  Try again
                </Button>
              )}
              <Link to={paths.adminUsers.getHref()} className={buttonClasses()}>
                <ArrowLeftIcon className="h-4 w-4" />
                Back to Users
              </Link>
            </div>
          }
        />
      </Card>
    );
  }

  const { user, transactions, auditLog } = detail.data;
  const name = `${user.firstName} ${user.lastName}`;
  return (
    <div className="space-y-6">
      <title>{`${name} · Users · Terrafund`}</title>
      <div className="space-y-3">
        <BackToUsers />
        <PageHeader title={name} description={user.email} />
      </div>
      <div className="grid gap-6 lg:grid-cols-3">
        <ProfileCard user={user} className="lg:col-span-1 lg:self-start" />
        <KycReview user={user} className="lg:col-span-2" />
      </div>
      <RecentTransactions transactions={transactions} />
      <AuditLog entries={auditLog} />
    </div>
  );
}

import { Link } from 'react-router';
import { KYC_RETENTION_DAYS_DEFAULT, messages } from '@terrafund/contracts';
import { paths } from '@/config/paths';
import { Button, buttonClasses } from '@/components/ui/button';
import { Alert } from '@/components/ui/alert';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { AlertTriangleIcon, ArrowLeftIcon, UserIcon } from 'lucide-react';
import { PageHeader } from '@/components/ui/page-header';
import { Spinner } from '@/components/ui/spinner';
import { TextLink } from '@/components/ui/text-link';
import { isApiError } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useUserDetail } from '../api/get-user-detail';
import { AuditLog } from './audit-log';
import { KycReview } from './kyc-review';
import { ProfileCard } from './profile-card';
import { RecentTransactions } from './recent-transactions';
import { Trans } from 'react-i18next';
import { useT } from '@/lib/i18n';

function BackToUsers() {
  const { t } = useT('admin');
  return (
    <TextLink to={paths.adminUsers.getHref()} className="inline-flex items-center gap-1.5 text-sm">
      <ArrowLeftIcon className="h-4 w-4" />
      {t('users.detail.back')}
    </TextLink>
  );
}

const KYC_RETENTION_YEARS = Math.round(KYC_RETENTION_DAYS_DEFAULT / 365);

/** What became of a closed account, and what is kept of it (issue 34); nothing here reopens it. */
function ClosedNotice({ closedAt }: { closedAt: string }) {
  const { t } = useT('admin');
  return (
    <Alert tone="danger" title={t('users.detail.closedTitle')}>
      <p>
        <Trans
          t={t}
          i18nKey="users.detail.closedText"
          values={{ date: formatDateTime(closedAt), years: KYC_RETENTION_YEARS }}
          components={{ time: <time dateTime={closedAt} /> }}
        />
      </p>
    </Alert>
  );
}

/** One user as an admin sees them: profile, KYC with its documents and decision, transactions, audit log. */
export function UserDetail({ userId }: { userId: string }) {
  const detail = useUserDetail(userId);
  const { t, say } = useT('admin');

  if (detail.isPending) {
    return (
      <div className="flex justify-center py-24">
        <Spinner size="lg" label={t('users.detail.loading')} />
      </div>
    );
  }

  if (detail.isError) {
    const notFound = isApiError(detail.error) && detail.error.status === 404;
    return (
      <Card>
        <title>{`${notFound ? say(messages.users.notFound) : t('users.detail.documentTitle')} · Terrafund`}</title>
        <EmptyState
          className="py-16"
          icon={notFound ? <UserIcon className="h-5 w-5" /> : <AlertTriangleIcon className="h-5 w-5" />}
          title={<span role="alert">{say(notFound ? messages.users.notFound : messages.kyc.loadUserFailed)}</span>}
          description={notFound ? t('users.detail.notFoundDescription') : undefined}
          action={
            <div className="flex flex-wrap justify-center gap-2">
              {!notFound && (
                <Button variant="outline" onClick={() => void detail.refetch()} isLoading={detail.isFetching}>
                  {t('users.detail.tryAgain')}
                </Button>
              )}
              <Link to={paths.adminUsers.getHref()} className={buttonClasses()}>
                <ArrowLeftIcon className="h-4 w-4" />
                {t('users.detail.back')}
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
      <title>{`${name} · ${t('users.detail.usersTitle')} · Terrafund`}</title>
      <div className="space-y-3">
        <BackToUsers />
        <PageHeader title={name} description={user.email} />
      </div>
      {user.closedAt && <ClosedNotice closedAt={user.closedAt} />}
      <div className="grid gap-6 lg:grid-cols-3">
        <ProfileCard user={user} className="lg:col-span-1 lg:self-start" />
        <KycReview user={user} className="lg:col-span-2" />
      </div>
      <RecentTransactions transactions={transactions} />
      <AuditLog entries={auditLog} />
    </div>
  );
}

import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { Alert } from '@/components/ui/alert';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { CheckCircleIcon, ClockIcon } from 'lucide-react';
import { cn } from '@/lib/cn';
import { formatDate } from '@/lib/format';
import { usePublicConfig } from '@/lib/public-config';
import { useT } from '@/lib/i18n';

const tones = {
  pending: 'bg-amber-50 text-amber-600 ring-amber-100 dark:bg-amber-500/10 dark:text-amber-400 dark:ring-amber-500/20',
  approved: 'bg-emerald-50 text-emerald-600 ring-emerald-100 dark:bg-emerald-500/10 dark:text-emerald-400 dark:ring-emerald-500/20',
} as const;

function StatusCard({
  tone,
  icon,
  title,
  children,
  actions,
}: {
  tone: keyof typeof tones;
  icon: ReactNode;
  title: string;
  children: ReactNode;
  actions: ReactNode;
}) {
  return (
    <Card className="flex flex-col items-center px-6 py-12 text-center sm:py-16">
      <span className={cn('flex h-16 w-16 items-center justify-center rounded-full ring-8', tones[tone])}>{icon}</span>
      <h2 className="mt-6 text-xl font-semibold text-slate-900 sm:text-2xl dark:text-white">{title}</h2>
      <div className="mt-3 max-w-lg space-y-2 text-sm text-slate-500 sm:text-base dark:text-slate-400">{children}</div>
      <div className="mt-8 flex flex-col gap-3 sm:flex-row">{actions}</div>
    </Card>
  );
}

/** Spec section 2: usually 1-2 business days; the member can browse but not invest meanwhile. */
export function KycPendingStatus({ submittedAt }: { submittedAt?: string | null }) {
  const { t } = useT('kyc');
  return (
    <StatusCard
      tone="pending"
      icon={<ClockIcon className="h-8 w-8" />}
      title={t('status.pendingTitle')}
      actions={
        <>
          <Link to={paths.projects.getHref()} className={buttonClasses()}>
            {t('status.browseProjects')}
          </Link>
          <Link to={paths.dashboard.getHref()} className={buttonClasses({ variant: 'outline' })}>
            {t('status.backToDashboard')}
          </Link>
        </>
      }
    >
      <p>{t('status.pendingText')}</p>
      <p>{t('status.pendingMeanwhile')}</p>
      {submittedAt && <p className="text-xs text-slate-400 dark:text-slate-500">{t('status.submittedOn', { date: formatDate(submittedAt) })}</p>}
    </StatusCard>
  );
}

export function KycApprovedStatus() {
  const { t } = useT('kyc');
  return (
    <StatusCard
      tone="approved"
      icon={<CheckCircleIcon className="h-8 w-8" />}
      title={t('status.approvedTitle')}
      actions={
        <Link to={paths.wallet.getHref()} className={buttonClasses()}>
          {t('status.goToWallet')}
        </Link>
      }
    >
      <p>{t('status.approvedText')}</p>
    </StatusCard>
  );
}

/** The admin's reason and a way to reach support; the form follows so the member can submit again. */
export function KycRejectedStatus({ reason }: { reason: string | null | undefined }) {
  const config = usePublicConfig();
  const email = config.data?.contactEmail;
  const { t } = useT('kyc');
  return (
    <Alert tone="danger" title={t('status.rejectedTitle')}>
      {reason && (
        <p>
          <span className="font-medium">{t('status.reason')}</span> {reason}
        </p>
      )}
      <p className={reason ? 'mt-1' : undefined}>
        {t('status.rejectedText')}
        {email ? (
          <>
            {' '}
            {t('status.at')}{' '}
            <a href={`mailto:${email}`} className="font-medium underline underline-offset-2">
              {email}
            </a>
          </>
        ) : null}
        .
      </p>
    </Alert>
  );
}

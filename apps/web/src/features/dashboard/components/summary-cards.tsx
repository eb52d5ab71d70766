import { StatCard, StatCardSkeleton } from '@/components/ui/stat-card';
import { useDeferredValue, useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { messages } from '@terrafund/contracts';
import { ClockIcon, TrendingUpIcon, WalletIcon, type LucideIcon } from 'lucide-react';
import { paths } from '@/config/paths';
import { formatDate, formatUsd } from '@/lib/format';
import { useDashboard } from '../api/get-dashboard';
import { formatCountdown } from '../utils/countdown';
import { useLogError } from '@/lib/use-log-error';
import { useT } from '@/lib/i18n';

type SummaryCardProps = {
  /** The card's element id: the same in every language. */
  id: string;
  title: string;
  icon: LucideIcon;
  value: ReactNode;
  detail: ReactNode;
};

function SummaryCard({ id, title, icon, value, detail }: SummaryCardProps) {
  return (
    <StatCard id={`summary-${id}`} title={title} icon={icon}>
      <p className="mt-3 text-2xl font-semibold tracking-tight text-slate-900 tabular-nums dark:text-white">{value}</p>
      <div className="mt-1 text-sm text-slate-500 dark:text-slate-400">{detail}</div>
    </StatCard>
  );
}

/** The current time, refreshed every second (docs/product.md §4.1 Statuses: the countdown is recomputed every 1 s). */
function useNow() {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function PayoutCountdown({ time, fallbackTarget }: { time: string; fallbackTarget: number }) {
  const parsed = Date.parse(time);
  const target = Number.isNaN(parsed) ? fallbackTarget : parsed;
  const now = useNow();
  const { t } = useT('dashboard');
  const text = formatCountdown(Math.ceil((target - now) / 1000), (days, hms) => t('summary.countdown', { days, time: hms }));

  if (text === null) return <span>{t('summary.processing')}</span>;
  return (
    <span>
      {t('summary.in')} <time className="font-medium text-slate-700 tabular-nums dark:text-slate-200">{text}</time>
    </span>
  );
}

/** Total Assets, Wallet Balance and Next Payout (docs/product.md §2.5 Member screens, Dashboard). */
export function SummaryCards() {
  // The answer is drawn as a transition, in slices between which the browser stays responsive, rather than in
  // the store update's own task (issue 17: Total Blocking Time on a slow phone).
  const dashboard = useDeferredValue(useDashboard());
  const { t, say } = useT('dashboard');
  useLogError(dashboard.error, 'dashboard data');

  if (!dashboard.data) {
    return (
      <section aria-label={t('summary.label')} aria-busy={dashboard.isPending || undefined} className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        <StatCardSkeleton />
        <StatCardSkeleton />
        <StatCardSkeleton />
      </section>
    );
  }

  const { totalAssets, walletBalance, membership, nextPayout, currentMembership } = dashboard.data;
  const noMembership = t('summary.noMembership');
  // A membership that ended (3 years after activation) pays nothing more: the countdown says so, with the way
  // to a new pack.
  const ended = !membership && currentMembership?.status === 'ended';
  const choosePlan = (
    // A whole tap target on a phone (44 × 44 px), though it ends a sentence: it is the card's one action.
    <Link
      to={paths.wallet.getHref()}
      className="font-medium text-emerald-700 underline-offset-2 hover:underline max-sm:inline-flex max-sm:min-h-11 max-sm:min-w-11 max-sm:items-center dark:text-emerald-400"
    >
      {ended ? say(messages.membership.renewButton) : t('summary.choosePlan')}
    </Link>
  );

  return (
    <section aria-label={t('summary.label')} className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
      <SummaryCard
        id="total-assets"
        title={t('summary.totalAssets')}
        icon={TrendingUpIcon}
        value={formatUsd(totalAssets)}
        detail={
          membership
            ? t('summary.membership', { pack: membership.toUpperCase() })
            : ended
              ? t('summary.membershipEnded', { pack: currentMembership.pack.toUpperCase() })
              : noMembership
        }
      />
      <SummaryCard
        id="wallet-balance"
        title={t('summary.walletBalance')}
        icon={WalletIcon}
        value={formatUsd(walletBalance)}
        detail={t('summary.available')}
      />
      <SummaryCard
        id="next-payout"
        title={t('summary.nextPayout')}
        icon={ClockIcon}
        value={membership && nextPayout ? formatUsd(nextPayout.amount) : formatUsd(0)}
        detail={
          ended ? (
            <span>
              {say(messages.membership.ended)} ({formatDate(currentMembership.lastPaidDay)}) · {choosePlan}
            </span>
          ) : !membership ? (
            <span>
              {noMembership} · {choosePlan}
            </span>
          ) : nextPayout ? (
            <PayoutCountdown time={nextPayout.time} fallbackTarget={dashboard.dataUpdatedAt + nextPayout.remainingTime * 1000} />
          ) : (
            t('summary.noPayout')
          )
        }
      />
    </section>
  );
}

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

type SummaryCardProps = {
  title: string;
  icon: LucideIcon;
  value: ReactNode;
  detail: ReactNode;
};

function SummaryCard({ title, icon, value, detail }: SummaryCardProps) {
  return (
    <StatCard id={`summary-${title.toLowerCase().replace(/\s+/g, '-')}`} title={title} icon={icon}>
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
  const text = formatCountdown(Math.ceil((target - now) / 1000));

  if (text === null) return <span>Payout processing...</span>;
  return (
    <span>
      In <time className="font-medium text-slate-700 tabular-nums dark:text-slate-200">{text}</time>
    </span>
  );
}

/** Total Assets, Wallet Balance and Next Payout (docs/product.md §2.5 Member screens, Dashboard). */
export function SummaryCards() {
  // The answer is drawn as a transition, in slices between which the browser stays responsive, rather than in
  // the store update's own task (issue 17: Total Blocking Time on a slow phone).
  const dashboard = useDeferredValue(useDashboard());
  useLogError(dashboard.error, 'dashboard data');

  if (!dashboard.data) {
    return (
      <section aria-label="Account summary" aria-busy={dashboard.isPending || undefined} className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        <StatCardSkeleton />
        <StatCardSkeleton />
        <StatCardSkeleton />
      </section>
    );
  }

  const { totalAssets, walletBalance, membership, nextPayout, currentMembership } = dashboard.data;
  const noMembership = 'No active membership';
  // A membership that ended (3 years after activation) pays nothing more: the countdown says so, with the way
  // to a new pack.
  const ended = !membership && currentMembership?.status === 'ended';
  const choosePlan = (
    <Link to={paths.wallet.getHref()} className="font-medium text-emerald-700 underline-offset-2 hover:underline dark:text-emerald-400">
      {ended ? messages.membership.renewButton : 'Choose a plan'}
    </Link>
  );

  return (
    <section aria-label="Account summary" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
      <SummaryCard
        title="Total Assets"
        icon={TrendingUpIcon}
        value={formatUsd(totalAssets)}
        detail={membership ? `${membership.toUpperCase()} membership` : ended ? `${currentMembership.pack.toUpperCase()} membership ended` : noMembership}
      />
      <SummaryCard title="Wallet Balance" icon={WalletIcon} value={formatUsd(walletBalance)} detail="Available for withdrawal" />
      <SummaryCard
        title="Next Payout"
        icon={ClockIcon}
        value={membership && nextPayout ? formatUsd(nextPayout.amount) : formatUsd(0)}
        detail={
          ended ? (
            <span>
              {messages.membership.ended} ({formatDate(currentMembership.lastPaidDay)}) · {choosePlan}
            </span>
          ) : !membership ? (
            <span>
              {noMembership} · {choosePlan}
            </span>
          ) : nextPayout ? (
            <PayoutCountdown time={nextPayout.time} fallbackTarget={dashboard.dataUpdatedAt + nextPayout.remainingTime * 1000} />
          ) : (
            'No payout scheduled'
          )
        }
      />
    </section>
  );
}

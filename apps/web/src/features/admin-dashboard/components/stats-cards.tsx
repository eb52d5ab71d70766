import { StatCard, StatCardSkeleton } from '@/components/ui/stat-card';
import { Card } from '@/components/ui/card';
import { LoadFailed } from '@/components/ui/load-state';
import { ChartColumnIcon, CoinsIcon, TrendingDownIcon, TrendingUpIcon, UsersIcon, WalletIcon, type LucideIcon } from 'lucide-react';
import { cn } from '@/lib/cn';
import { formatUsd } from '@/lib/format';
import { INTL_LOCALES } from '@terrafund/contracts/i18n';
import { useT } from '@/lib/i18n';
import { useAdminStats } from '../api/get-admin-stats';


/**
 * A growth figure with its sign, arrow and colour. The direction follows the figure as printed, so
 * +0.04 % (printed "0%") is flat, not a green arrow over a zero.
 */
function Growth({ value }: { value: number }) {
  const { t, language } = useT('admin');
  if (!Number.isFinite(value)) return null;
  const shown = Math.round(value * 10) / 10;
  const Arrow = shown > 0 ? TrendingUpIcon : shown < 0 ? TrendingDownIcon : null;
  return (
    <p className="mt-2 flex flex-wrap items-center gap-x-1.5 gap-y-0.5 text-sm">
      <span
        className={cn(
          'inline-flex items-center gap-1 font-medium tabular-nums',
          shown > 0 && 'text-emerald-600 dark:text-emerald-400',
          shown < 0 && 'text-rose-600 dark:text-rose-400',
          shown === 0 && 'text-slate-600 dark:text-slate-300',
        )}
      >
        {Arrow && <Arrow className="h-4 w-4" />}
        {t('dashboard.stats.growth', { value: new Intl.NumberFormat(INTL_LOCALES[language], { maximumFractionDigits: 1, signDisplay: 'exceptZero' }).format(shown) })}
      </span>
      <span className="text-slate-500 dark:text-slate-400">{t('dashboard.stats.growthPeriod')}</span>
    </p>
  );
}

type StatCardProps = {
  /** The card's id: stable in every language. */
  id: string;
  title: string;
  icon: LucideIcon;
  value: string;
  growth?: number;
  detail?: string;
};

function AdminStatCard({ id, title, icon, value, growth, detail }: StatCardProps) {
  return (
    <StatCard id={`admin-stat-${id}`} title={title} icon={icon}>
      <p className="mt-3 truncate text-2xl font-semibold tracking-tight text-slate-900 tabular-nums dark:text-white" title={value}>
        {value}
      </p>
      {growth !== undefined ? <Growth value={growth} /> : detail && <p className="mt-2 text-sm text-slate-500 dark:text-slate-400">{detail}</p>}
    </StatCard>
  );
}

const grid = 'grid gap-4 sm:grid-cols-2 xl:grid-cols-4';

/** Total Users and Total Investments with their growth, Daily Payouts and Monthly Volume (spec: Admin screens). */
export function StatsCards() {
  const stats = useAdminStats();
  const { t, language } = useT('admin');

  if (stats.isError && !stats.data) {
    return (
      <section aria-label={t('dashboard.stats.label')}>
        <Card>
          <LoadFailed
            title={t('dashboard.stats.failedTitle')}
            description={t('dashboard.stats.failedDescription')}
            query={stats}
          />
        </Card>
      </section>
    );
  }

  if (!stats.data) {
    return (
      <section aria-label={t('dashboard.stats.label')} aria-busy="true" className={grid}>
        <StatCardSkeleton />
        <StatCardSkeleton />
        <StatCardSkeleton />
        <StatCardSkeleton />
      </section>
    );
  }

  const { totalUsers, userGrowth, totalInvestments, investmentGrowth, totalDailyPayouts, monthlyVolume } = stats.data;
  const count = new Intl.NumberFormat(INTL_LOCALES[language]);
  // Whole dollars in admin views (docs/product.md §5.2 Packs).
  return (
    <section aria-label={t('dashboard.stats.label')} className={grid}>
      <AdminStatCard id="total-users" title={t('dashboard.stats.totalUsers')} icon={UsersIcon} value={count.format(totalUsers)} growth={userGrowth} />
      <AdminStatCard id="total-investments" title={t('dashboard.stats.totalInvestments')} icon={WalletIcon} value={formatUsd(totalInvestments, 0)} growth={investmentGrowth} />
      <AdminStatCard id="daily-payouts" title={t('dashboard.stats.dailyPayouts')} icon={CoinsIcon} value={formatUsd(totalDailyPayouts, 0)} detail={t('dashboard.stats.dailyPayoutsDetail')} />
      <AdminStatCard id="monthly-volume" title={t('dashboard.stats.monthlyVolume')} icon={ChartColumnIcon} value={formatUsd(monthlyVolume, 0)} detail={t('dashboard.stats.monthlyVolumeDetail')} />
    </section>
  );
}

import { lazy, Suspense, useState } from 'react';
import { PROJECTION_PERIODS, type ProjectionPeriod } from '@terrafund/contracts';
import { Card } from '@/components/ui/card';
import { ChartColumnIcon } from 'lucide-react';
import { cn } from '@/lib/cn';
import { FIRST_PROJECTION_PERIOD, useInvestmentPerformance } from '../api/get-investment-performance';
import { useLogError } from '@/lib/use-log-error';
import { useT } from '@/lib/i18n';

const ProjectionPlot = lazy(() => import('./projection-plot').then((module) => ({ default: module.ProjectionPlot })));

const loadingBox = (
  <div key="loading" aria-hidden="true" className="h-72 animate-pulse rounded-xl bg-slate-100 dark:bg-slate-800/60" />
);

/** "Projected Investment Growth" with its range buttons (docs/product.md §2.5 Member screens, Dashboard; section 9, ranges). */
export function ProjectionChart() {
  const { t } = useT('dashboard');
  const [period, setPeriod] = useState<ProjectionPeriod>(FIRST_PROJECTION_PERIOD);
  const performance = useInvestmentPerformance(period);
  useLogError(performance.error, 'the investment projection');

  let body;
  if (performance.isPending) {
    // Its own key: were React to reuse this pulsing box for the empty state, Chrome would count the change as a
    // layout shift of the whole box (CLS 0.29 on the dashboard in Lighthouse).
    body = loadingBox;
  } else if (!performance.data?.length) {
    body = (
      <div key="empty" className="flex h-72 flex-col items-center justify-center gap-3 text-center">
        <span className="flex h-11 w-11 items-center justify-center rounded-full bg-slate-100 text-slate-500 dark:bg-slate-800 dark:text-slate-400">
          <ChartColumnIcon className="h-5 w-5" aria-hidden="true" />
        </span>
        <p className="text-sm text-slate-500 dark:text-slate-400">{t('projection.empty')}</p>
      </div>
    );
  } else {
    body = (
      <Suspense fallback={loadingBox}>
        <ProjectionPlot points={performance.data} />
      </Suspense>
    );
  }

  return (
    <Card className="p-5" aria-busy={performance.isFetching || undefined}>
      <section aria-labelledby="projection-title">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="projection-title" className="text-lg font-semibold text-slate-900 dark:text-white">
            {t('projection.title')}
          </h2>
          <div role="group" aria-label={t('projection.range')} className="inline-flex rounded-lg bg-slate-100 p-1 dark:bg-slate-800">
            {PROJECTION_PERIODS.map((value) => (
              <button
                key={value}
                type="button"
                aria-pressed={value === period}
                onClick={() => setPeriod(value)}
                className={cn(
                  'h-8 min-w-11 rounded-md px-2.5 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-500',
                  value === period
                    ? 'bg-white text-slate-900 shadow-sm dark:bg-slate-950 dark:text-white'
                    : 'text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white',
                )}
              >
                {value}
              </button>
            ))}
          </div>
        </div>
        <div className="mt-4">{body}</div>
      </section>
    </Card>
  );
}

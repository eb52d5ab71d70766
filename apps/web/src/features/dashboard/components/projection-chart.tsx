import { useId, useState } from 'react';
import { format, parseISO } from 'date-fns';
import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis, type TooltipContentProps } from 'recharts';
import { PROJECTION_PERIODS, type ProjectionPeriod, type ProjectionPoint } from '@terrafund/contracts';
import { Card } from '@/components/ui/card';
import { ChartColumnIcon } from 'lucide-react';
import { cn } from '@/lib/cn';
import { formatDate, formatUsd } from '@/lib/format';
import { useInvestmentPerformance } from '../api/get-investment-performance';
import { pickTicks } from '../utils/countdown';
import { useLogError } from '@/lib/use-log-error';

const VALUE_LABEL = 'Projected Value';
const MAX_TICKS = 7;
const CHART_HEIGHT = 288;

/** "Jan 05": the chart's date format (docs/product.md §5.11 Projection). */
const tickDate = (date: string) => format(parseISO(date), 'MMM dd');

function ProjectionTooltip({ active, payload }: Partial<TooltipContentProps<number, string>>) {
  const point = payload?.[0]?.payload as ProjectionPoint | undefined;
  if (!active || !point) return null;
  return (
    <div className="rounded-lg border border-slate-200 bg-white px-3 py-2 text-sm shadow-md dark:border-slate-700 dark:bg-slate-900">
      <p className="text-slate-500 dark:text-slate-400">{formatDate(point.date)}</p>
      <p className="mt-0.5 font-semibold text-slate-900 tabular-nums dark:text-white">
        {VALUE_LABEL}: {formatUsd(point.value)}
      </p>
    </div>
  );
}

function Chart({ points }: { points: ProjectionPoint[] }) {
  const gradientId = `projection-fill-${useId().replace(/:/g, '')}`;
  const ticks = pickTicks(
    points.map((p) => p.date),
    MAX_TICKS,
  );
  return (
    <div className="h-72 text-slate-500 dark:text-slate-400" role="img" aria-label={`${VALUE_LABEL} chart`}>
      <ResponsiveContainer width="100%" height={CHART_HEIGHT} initialDimension={{ width: 600, height: CHART_HEIGHT }}>
        <AreaChart data={points} margin={{ top: 8, right: 28, bottom: 0, left: 0 }}>
          <defs>
            <linearGradient id={gradientId} x1="0" y1="0" x2="0" y2="1">
              <stop offset="0%" stopColor="#10b981" stopOpacity={0.35} />
              <stop offset="100%" stopColor="#10b981" stopOpacity={0} />
            </linearGradient>
          </defs>
          <CartesianGrid stroke="currentColor" strokeOpacity={0.15} vertical={false} />
          <XAxis
            dataKey="date"
            ticks={ticks}
            // At most 7 ticks (docs/product.md §5.11 Projection); on a narrow screen the ones that would overlap are dropped.
            interval="preserveStartEnd"
            tickFormatter={tickDate}
            tick={{ fill: 'currentColor', fontSize: 12 }}
            tickLine={false}
            axisLine={{ stroke: 'currentColor', strokeOpacity: 0.3 }}
            minTickGap={12}
          />
          <YAxis
            domain={['auto', 'auto']}
            tickFormatter={(value: number) => formatUsd(value, 0)}
            tick={{ fill: 'currentColor', fontSize: 12 }}
            tickLine={false}
            axisLine={false}
            width={72}
          />
          <Tooltip content={<ProjectionTooltip />} cursor={{ stroke: 'currentColor', strokeOpacity: 0.3 }} />
          <Area
            type="monotone"
            dataKey="value"
            name={VALUE_LABEL}
            stroke="#10b981"
            strokeWidth={2}
            fill={`url(#${gradientId})`}
            dot={false}
            activeDot={{ r: 4 }}
            isAnimationActive={false}
          />
        </AreaChart>
      </ResponsiveContainer>
    </div>
  );
}

/** "Projected Investment Growth" with its range buttons (docs/product.md §2.5 Member screens, Dashboard; section 9, ranges). */
export function ProjectionChart() {
  const [period, setPeriod] = useState<ProjectionPeriod>('1M');
  const performance = useInvestmentPerformance(period);
  useLogError(performance.error, 'the investment projection');

  let body;
  if (performance.isPending) {
    body = <div aria-hidden="true" className="h-72 animate-pulse rounded-xl bg-slate-100 dark:bg-slate-800/60" />;
  } else if (!performance.data?.length) {
    body = (
      <div className="flex h-72 flex-col items-center justify-center gap-3 text-center">
        <span className="flex h-11 w-11 items-center justify-center rounded-full bg-slate-100 text-slate-500 dark:bg-slate-800 dark:text-slate-400">
          <ChartColumnIcon className="h-5 w-5" aria-hidden="true" />
        </span>
        <p className="text-sm text-slate-500 dark:text-slate-400">No projection data available</p>
      </div>
    );
  } else {
    body = <Chart points={performance.data} />;
  }

  return (
    <Card className="p-5" aria-busy={performance.isFetching || undefined}>
      <section aria-labelledby="projection-title">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="projection-title" className="text-lg font-semibold text-slate-900 dark:text-white">
            Projected Investment Growth
          </h2>
          <div role="group" aria-label="Projection range" className="inline-flex rounded-lg bg-slate-100 p-1 dark:bg-slate-800">
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

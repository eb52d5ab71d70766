import { useId } from 'react';
import { parseISO } from 'date-fns';
import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis, type TooltipContentProps } from 'recharts';
import type { ProjectionPoint } from '@terrafund/contracts';
import { formatDate, formatUsd } from '@/lib/format';
import { currentLanguage, useT } from '@/lib/i18n';
import { INTL_LOCALES } from '@terrafund/contracts/i18n';
import { pickTicks } from '../utils/countdown';

const MAX_TICKS = 7;
const CHART_HEIGHT = 288;

/**
 * "Jan 05": the chart's date format (docs/product.md §5.11 Projection), in the language's own order and month
 * names ("05 ene", "05 janv."). The points are calendar days: read and written in the browser's time zone, as
 * date-fns's parseISO reads them.
 */
export const tickDate = (date: string) =>
  new Intl.DateTimeFormat(INTL_LOCALES[currentLanguage()], { month: 'short', day: '2-digit' }).format(parseISO(date));

function ProjectionTooltip({ active, payload }: Partial<TooltipContentProps<number, string>>) {
  const point = payload?.[0]?.payload as ProjectionPoint | undefined;
  const { t } = useT('dashboard');
  if (!active || !point) return null;
  return (
    <div className="rounded-lg border border-slate-200 bg-white px-3 py-2 text-sm shadow-md dark:border-slate-700 dark:bg-slate-900">
      <p className="text-slate-500 dark:text-slate-400">{formatDate(point.date)}</p>
      <p className="mt-0.5 font-semibold text-slate-900 tabular-nums dark:text-white">
        {t('projection.value')}: {formatUsd(point.value)}
      </p>
    </div>
  );
}

/**
 * The chart itself, with Recharts: a module of its own, loaded only when there are points to draw, so a member with
 * no projection yet never downloads or runs the charting library (issue 17: Total Blocking Time).
 */
export function ProjectionPlot({ points }: { points: ProjectionPoint[] }) {
  const { t } = useT('dashboard');
  const gradientId = `projection-fill-${useId().replace(/:/g, '')}`;
  const ticks = pickTicks(
    points.map((p) => p.date),
    MAX_TICKS,
  );
  return (
    <div className="h-72 text-slate-500 dark:text-slate-400" role="img" aria-label={t('projection.chart')}>
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
            name={t('projection.value')}
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

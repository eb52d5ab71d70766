import { useId } from 'react';
import { format, parseISO } from 'date-fns';
import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis, type TooltipContentProps } from 'recharts';
import type { ProjectionPoint } from '@terrafund/contracts';
import { formatDate, formatUsd } from '@/lib/format';
import { pickTicks } from '../utils/countdown';

export const VALUE_LABEL = 'Projected Value';
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

/**
 * The chart itself, with Recharts: a module of its own, loaded only when there are points to draw, so a member with
 * no projection yet never downloads or runs the charting library (issue 17: Total Blocking Time).
 */
export function ProjectionPlot({ points }: { points: ProjectionPoint[] }) {
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

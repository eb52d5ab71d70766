import { cn } from '@/lib/cn';

type ProgressProps = {
  /** 0 to 100; anything outside is drawn at the nearest end. */
  value: number;
  /** The bar's accessible name ("Funded"). */
  label: string;
  /** What assistive technology reads instead of the bare number ("40% funded"). */
  valueText?: string;
  size?: 'sm' | 'md';
  className?: string;
};

/** A horizontal bar that fills to a percentage; exposed as a progressbar with its value. */
export function Progress({ value, label, valueText, size = 'md', className }: ProgressProps) {
  const clamped = Number.isFinite(value) ? Math.min(100, Math.max(0, value)) : 0;
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(clamped)}
      aria-valuetext={valueText}
      className={cn('w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800', size === 'sm' ? 'h-1.5' : 'h-2.5', className)}
    >
      <div className="h-full rounded-full bg-emerald-500 transition-[width] duration-500 dark:bg-emerald-400" style={{ width: `${clamped}%` }} />
    </div>
  );
}

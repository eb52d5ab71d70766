import { cn } from '@/lib/cn';
import { useT } from '@/lib/i18n';

const sizes = {
  sm: 'h-4 w-4 border-2',
  md: 'h-8 w-8 border-[3px]',
  lg: 'h-12 w-12 border-4',
} as const;

export type SpinnerSize = keyof typeof sizes;

type SpinnerProps = { size?: SpinnerSize; className?: string; label?: string };

/** A spinning ring; announced to assistive technology as a loading status. */
export function Spinner({ size = 'md', className, label }: SpinnerProps) {
  const { t } = useT();
  return (
    <span role="status" className={cn('inline-flex', className)}>
      <span
        aria-hidden="true"
        className={cn(
          'animate-spin rounded-full border-emerald-500/25 border-t-emerald-500 dark:border-emerald-400/20 dark:border-t-emerald-400',
          sizes[size],
        )}
      />
      <span className="sr-only">{label ?? t('loading')}</span>
    </span>
  );
}

/** The whole viewport given over to a large spinner: shown while authentication is still loading. */
export function FullScreenSpinner() {
  return (
    <div className="flex min-h-dvh w-full items-center justify-center bg-slate-50 dark:bg-slate-950">
      <Spinner size="lg" />
    </div>
  );
}

import { useId, type ReactNode } from 'react';
import { cn } from '@/lib/cn';

type SwitchProps = {
  label: ReactNode;
  description?: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  className?: string;
};

/**
 * An on/off setting that applies at once: a `role="switch"` button named by its label (Space and Enter toggle it,
 * like any button), the label and description beside it. The whole row is at least 44 px high and the label is
 * clickable too, so a finger need not find the small track (WCAG 2.5.8).
 */
export function Switch({ label, description, checked, onChange, disabled, className }: SwitchProps) {
  const id = useId();
  const descriptionId = description ? `${id}-description` : undefined;
  return (
    <div className={cn('flex min-h-11 items-center justify-between gap-4', className)}>
      <div className="min-w-0">
        <label htmlFor={id} className="cursor-pointer text-sm font-medium text-slate-900 dark:text-white">
          {label}
        </label>
        {description && (
          <p id={descriptionId} className="text-sm text-slate-500 dark:text-slate-400">
            {description}
          </p>
        )}
      </div>
      <button
        id={id}
        type="button"
        role="switch"
        aria-checked={checked}
        aria-describedby={descriptionId}
        disabled={disabled}
        onClick={() => onChange(!checked)}
        className={cn(
          // The visible track is 24 px high; the button around it is the 44 px target.
          'group relative inline-flex h-11 w-14 shrink-0 cursor-pointer items-center justify-center rounded-full',
          'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-500',
          'disabled:cursor-not-allowed disabled:opacity-60',
        )}
      >
        <span
          aria-hidden="true"
          className={cn(
            'flex h-6 w-11 items-center rounded-full p-0.5 transition-colors',
            checked ? 'bg-emerald-600 dark:bg-emerald-500' : 'bg-slate-300 dark:bg-slate-600',
          )}
        >
          <span
            className={cn(
              'h-5 w-5 rounded-full bg-white shadow-sm transition-transform motion-reduce:transition-none',
              checked ? 'translate-x-5' : 'translate-x-0',
            )}
          />
        </span>
      </button>
    </div>
  );
}

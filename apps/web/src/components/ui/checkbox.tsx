import type { InputHTMLAttributes, ReactNode, Ref } from 'react';
import { cn } from '@/lib/cn';

type CheckboxProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & {
  label: ReactNode;
  error?: string;
  ref?: Ref<HTMLInputElement>;
};

/** A checkbox with its label beside it and, when given, an error linked by aria-describedby. */
export function Checkbox({ id, label, error, className, ...props }: CheckboxProps) {
  const errorId = error && id ? `${id}-error` : undefined;
  return (
    <div className={className}>
      <div className="flex items-start gap-2.5">
        <input
          id={id}
          type="checkbox"
          aria-invalid={error ? true : undefined}
          aria-describedby={errorId}
          className={cn(
            'mt-0.5 h-4 w-4 shrink-0 cursor-pointer rounded border-slate-300 accent-emerald-600',
            'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-500 dark:accent-emerald-500',
          )}
          {...props}
        />
        <label htmlFor={id} className="cursor-pointer text-sm text-slate-600 select-none dark:text-slate-300">
          {label}
        </label>
      </div>
      {error && (
        <p id={errorId} className="mt-1.5 text-sm text-rose-600 dark:text-rose-400">
          {error}
        </p>
      )}
    </div>
  );
}

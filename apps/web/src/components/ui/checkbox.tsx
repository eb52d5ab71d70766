import type { InputHTMLAttributes, ReactNode, Ref } from 'react';
import { cn } from '@/lib/cn';
import { CheckIcon } from 'lucide-react';
import { useT } from '@/lib/i18n';

type CheckboxProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & {
  label: ReactNode;
  error?: string;
  ref?: Ref<HTMLInputElement>;
};

/**
 * A checkbox with its label beside it and, when given, an error linked by aria-describedby. The box is drawn
 * at 16 px, but the native input over it (transparent) is 44 × 44 px, a finger's size (issue 17); negative
 * margins keep the label where a 16 px box would put it.
 */
export function Checkbox({ id, label, error, className, ...props }: CheckboxProps) {
  const { say } = useT();
  const errorId = error && id ? `${id}-error` : undefined;
  return (
    <div className={className}>
      <div className="flex items-start gap-0.5">
        <span className="relative -my-3 -ml-3.5 flex h-11 w-11 shrink-0 items-center justify-center">
          <input
            id={id}
            type="checkbox"
            aria-invalid={error ? true : undefined}
            aria-describedby={errorId}
            className="peer absolute inset-0 m-0 h-full w-full cursor-pointer appearance-none rounded-lg opacity-0"
            {...props}
          />
          <span
            aria-hidden="true"
            className={cn(
              'pointer-events-none flex h-4 w-4 items-center justify-center rounded border border-slate-400 bg-white text-transparent',
              'peer-checked:border-emerald-600 peer-checked:bg-emerald-600 peer-checked:text-white',
              'peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-emerald-500',
              'peer-aria-invalid:border-rose-600 peer-disabled:opacity-60',
              'dark:border-slate-500 dark:bg-slate-900 dark:peer-checked:border-emerald-500 dark:peer-checked:bg-emerald-500 dark:peer-checked:text-slate-950',
              'dark:peer-aria-invalid:border-rose-400',
            )}
          >
            <CheckIcon className="h-3 w-3" strokeWidth={3} />
          </span>
        </span>
        <label htmlFor={id} className="cursor-pointer pt-px text-sm text-slate-600 select-none dark:text-slate-300">
          {label}
        </label>
      </div>
      {error && (
        <p id={errorId} className="mt-1.5 text-sm text-rose-600 dark:text-rose-400">
          {say(error)}
        </p>
      )}
    </div>
  );
}

import { useId, type ReactNode } from 'react';
import { useT } from '@/lib/i18n';

export type FieldControlProps = {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
};

type FormFieldProps = {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  /** Shown at the right of the label row, e.g. a "Forgot password?" link. */
  labelAside?: ReactNode;
  children: (control: FieldControlProps) => ReactNode;
};

/**
 * A label, its control and the control's error or hint. The control receives its id,
 * aria-invalid and aria-describedby so the error is announced with the field. An error that is one of messages.ts's
 * (a zod issue of the contracts' schemas, written in English) is shown in the app's language (issue 35).
 */
export function FormField({ label, error, hint, labelAside, children }: FormFieldProps) {
  const { say } = useT();
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div>
      <div className="mb-1.5 flex items-center justify-between gap-2">
        <label htmlFor={id} className="text-sm font-medium text-slate-700 dark:text-slate-200">
          {label}
        </label>
        {labelAside}
      </div>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {hint && !error && (
        <p id={hintId} className="mt-1.5 text-xs text-slate-500 dark:text-slate-400">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="mt-1.5 text-sm text-rose-600 dark:text-rose-400">
          {say(error)}
        </p>
      )}
    </div>
  );
}

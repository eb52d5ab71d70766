import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

type FieldLabelProps = {
  htmlFor: string;
  children: ReactNode;
  /** Marks a field that may be left empty, e.g. "(optional)", in a lighter weight after the label. */
  optional?: ReactNode;
  /** Classes before the label's own, e.g. the space above it. */
  className?: string;
};

/** A field's visible label, on its own line above the control. */
export function FieldLabel({ htmlFor, children, optional, className }: FieldLabelProps) {
  return (
    <label htmlFor={htmlFor} className={cn(className, 'mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-200')}>
      {children}
      {optional && (
        <>
          {' '}
          <span className="font-normal text-slate-500 dark:text-slate-400">{optional}</span>
        </>
      )}
    </label>
  );
}

import { useId, type ReactNode } from 'react';
import { FieldLabel } from './field-label';
import { Textarea, type TextareaProps } from './textarea';

type NoteFieldProps = Omit<TextareaProps, 'id' | 'aria-describedby' | 'value' | 'maxLength'> & {
  label: ReactNode;
  /** See FieldLabel. */
  optional?: ReactNode;
  /** Classes before the label's own, e.g. the space above it. */
  labelClassName?: string;
  /** What the note is for, under the field beside the count of characters. */
  hint: ReactNode;
  value: string;
  maxLength: number;
};

/** A free-text note with its label, a hint, and how many of the characters it may have are used. */
export function NoteField({ label, optional, labelClassName, hint, value, maxLength, ...textarea }: NoteFieldProps) {
  const fieldId = useId();
  const hintId = useId();
  return (
    <>
      <FieldLabel htmlFor={fieldId} optional={optional} className={labelClassName}>
        {label}
      </FieldLabel>
      <Textarea id={fieldId} value={value} maxLength={maxLength} aria-describedby={hintId} {...textarea} />
      <div className="mt-1.5 flex justify-between gap-4 text-xs text-slate-500 dark:text-slate-400">
        <p id={hintId}>{hint}</p>
        <p className="shrink-0 tabular-nums">
          {value.length}/{maxLength}
        </p>
      </div>
    </>
  );
}

import type { Ref, SelectHTMLAttributes } from 'react';
import { cn } from '@/lib/cn';
import { ChevronDownIcon } from 'lucide-react';
import { inputClasses } from './input';

export type SelectOption = { value: string; label: string };

type SelectProps = SelectHTMLAttributes<HTMLSelectElement> & {
  options: readonly SelectOption[];
  /** A first, empty choice that asks the user to pick one (not selectable again once a value is chosen). */
  placeholder?: string;
  ref?: Ref<HTMLSelectElement>;
};

/** A native select (so keyboards, screen readers and phones behave as they expect) in the inputs' look. */
export function Select({ options, placeholder, className, ...props }: SelectProps) {
  return (
    <div className="relative">
      <select className={cn(inputClasses, 'cursor-pointer appearance-none pr-10', className)} {...props}>
        {placeholder !== undefined && (
          <option value="" disabled>
            {placeholder}
          </option>
        )}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <ChevronDownIcon className="pointer-events-none absolute top-1/2 right-3.5 h-4 w-4 -translate-y-1/2 text-slate-400" />
    </div>
  );
}

type FilterSelectProps = Omit<SelectProps, 'id' | 'onChange' | 'value'> & {
  id: string;
  /** The filter's name for screen readers (the chosen option alone does not say what it filters). */
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  /** Classes of the box around the label and the select (its width in the toolbar). */
  wrapperClassName?: string;
};

/** A list's filter: a Select with a label that only screen readers hear. */
export function FilterSelect({ id, label, onValueChange, wrapperClassName, ...props }: FilterSelectProps) {
  return (
    <div className={wrapperClassName}>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <Select id={id} onChange={(event) => onValueChange(event.target.value)} {...props} />
    </div>
  );
}

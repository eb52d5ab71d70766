import type { Ref, SelectHTMLAttributes } from 'react';
import { ChevronDownIcon } from '@/components/ui/icons';
import { inputClasses } from '@/components/ui/input';
import { cn } from '@/lib/cn';

type SelectProps = SelectHTMLAttributes<HTMLSelectElement> & {
  options: ReadonlyArray<{ value: string; label: string }>;
  /** A first, empty choice that asks the user to pick one. */
  placeholder?: string;
  ref?: Ref<HTMLSelectElement>;
};

/** A native select in the inputs' look, with its own arrow. */
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

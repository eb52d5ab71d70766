import { SearchIcon } from 'lucide-react';
import { cn } from '@/lib/cn';
import { Input, type InputProps } from './input';

type SearchFieldProps = Omit<InputProps, 'type' | 'onChange' | 'value' | 'id'> & {
  id: string;
  /** The box's name for screen readers (the placeholder alone is not a label). */
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  /** Classes of the box around the field and its magnifier (its width in the toolbar). */
  wrapperClassName?: string;
};

/** A list's search box: a search input with a magnifier inside and a label that only screen readers hear. */
export function SearchField({ id, label, value, onValueChange, wrapperClassName, className, ...props }: SearchFieldProps) {
  return (
    <div className={cn('relative', wrapperClassName)}>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <SearchIcon className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-slate-400" />
      <Input
        id={id}
        type="search"
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
        autoComplete="off"
        className={cn('pl-9', className)}
        {...props}
      />
    </div>
  );
}

import type { InputHTMLAttributes, Ref } from 'react';
import { cn } from '@/lib/cn';

export const inputClasses = cn(
  'block h-11 w-full rounded-lg border bg-white px-3.5 text-sm text-slate-900 shadow-sm transition-colors',
  'placeholder:text-slate-400 focus:outline-none focus:ring-2',
  'border-slate-300 focus:border-emerald-500 focus:ring-emerald-500/25',
  'aria-invalid:border-rose-500 aria-invalid:focus:border-rose-500 aria-invalid:focus:ring-rose-500/25',
  'dark:border-slate-700 dark:bg-slate-900 dark:text-white dark:placeholder:text-slate-500',
  'dark:aria-invalid:border-rose-400',
  'disabled:cursor-not-allowed disabled:opacity-60',
);

export type InputProps = InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> };

export function Input({ className, ...props }: InputProps) {
  return <input className={cn(inputClasses, className)} {...props} />;
}

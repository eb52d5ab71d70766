import { Link, type LinkProps } from 'react-router';
import { cn } from '@/lib/cn';

/** An inline link in the brand colour. */
export function TextLink({ className, ...props }: LinkProps) {
  return (
    <Link
      className={cn(
        'rounded-sm font-medium text-emerald-600 hover:text-emerald-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-500 dark:text-emerald-400 dark:hover:text-emerald-300',
        className,
      )}
      {...props}
    />
  );
}

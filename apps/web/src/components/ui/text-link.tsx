import { Link, type LinkProps } from 'react-router';
import { cn } from '@/lib/cn';

/**
 * A link in the brand colour. On a phone it is at least 44 × 44 px to tap (issue 17), padding its line;
 * a link inside a sentence may stay an inline <Link> (WCAG 2.5.8's inline exception).
 */
export function TextLink({ className, ...props }: LinkProps) {
  return (
    <Link
      className={cn(
        'rounded-sm font-medium max-sm:inline-flex max-sm:min-h-11 max-sm:min-w-11 max-sm:items-center max-sm:justify-center text-emerald-600 hover:text-emerald-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-500 dark:text-emerald-400 dark:hover:text-emerald-300',
        className,
      )}
      {...props}
    />
  );
}

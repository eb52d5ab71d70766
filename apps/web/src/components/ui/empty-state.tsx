import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { InboxIcon } from 'lucide-react';

type EmptyStateProps = { title: ReactNode; description?: ReactNode; action?: ReactNode; icon?: ReactNode; className?: string };

/** What a list or section shows when it has nothing to show, and what to do about it. */
export function EmptyState({ title, description, action, icon, className }: EmptyStateProps) {
  return (
    <div className={cn('flex flex-col items-center px-6 py-12 text-center', className)}>
      <span className="flex h-11 w-11 items-center justify-center rounded-full bg-slate-100 text-slate-500 dark:bg-slate-800 dark:text-slate-400">
        {icon ?? <InboxIcon className="h-5 w-5" />}
      </span>
      <p className="mt-3 font-semibold text-slate-900 dark:text-white">{title}</p>
      {description && <p className="mt-1 max-w-sm text-sm text-slate-500 dark:text-slate-400">{description}</p>}
      {action && <div className="mt-4">{action}</div>}
    </div>
  );
}

import type { ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';
import { Card } from './card';

type StatCardProps = {
  /** The id of the title, which names the card's group. */
  id: string;
  title: string;
  icon: LucideIcon;
  /** The figure and what explains it. */
  children: ReactNode;
};

/** One figure of a dashboard: a card named by its title, with its icon at the right. */
export function StatCard({ id, title, icon: Icon, children }: StatCardProps) {
  return (
    <Card role="group" aria-labelledby={id} className="p-5">
      <div className="flex items-center justify-between gap-3">
        <h2 id={id} className="text-sm font-medium text-slate-500 dark:text-slate-400">
          {title}
        </h2>
        <span className="flex h-9 w-9 items-center justify-center rounded-xl bg-emerald-50 text-emerald-600 dark:bg-emerald-500/10 dark:text-emerald-400">
          <Icon className="h-5 w-5" aria-hidden="true" />
        </span>
      </div>
      {children}
    </Card>
  );
}

/**
 * A stat card's place while its figure loads: line for line as tall as a StatCard with a figure and one line
 * under it, so the cards do not push the page down when the figures arrive (a layout shift, issue 17).
 */
export function StatCardSkeleton() {
  return (
    <Card className="p-5" aria-hidden="true">
      <div className="animate-pulse">
        <div className="flex h-9 items-center">
          <div className="h-4 w-24 rounded bg-slate-200 dark:bg-slate-800" />
        </div>
        <div className="mt-3 flex h-8 items-center">
          <div className="h-7 w-32 rounded bg-slate-200 dark:bg-slate-800" />
        </div>
        <div className="mt-1 flex h-5 items-center">
          <div className="h-4 w-40 rounded bg-slate-200 dark:bg-slate-800" />
        </div>
      </div>
    </Card>
  );
}

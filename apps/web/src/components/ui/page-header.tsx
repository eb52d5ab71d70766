import type { ReactNode } from 'react';

type PageHeaderProps = { title: ReactNode; description?: ReactNode; actions?: ReactNode };

/** A screen's heading (its one h1), a line of explanation and its main actions. */
export function PageHeader({ title, description, actions }: PageHeaderProps) {
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <div className="min-w-0">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl dark:text-white">{title}</h1>
        {description && <p className="mt-1.5 text-sm text-slate-500 sm:text-base dark:text-slate-400">{description}</p>}
      </div>
      {actions && <div className="flex shrink-0 flex-wrap gap-2">{actions}</div>}
    </div>
  );
}

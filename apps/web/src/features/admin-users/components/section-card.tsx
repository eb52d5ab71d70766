import { useId, type ReactNode } from 'react';
import { Card } from '@/components/ui/card';
import { cn } from '@/lib/cn';
import { useT } from '@/lib/i18n';

type SectionCardProps = { title: ReactNode; aside?: ReactNode; children: ReactNode; className?: string; bodyClassName?: string };

/** A titled card; the section is named by its heading for assistive technology. */
export function SectionCard({ title, aside, children, className, bodyClassName }: SectionCardProps) {
  const headingId = useId();
  return (
    <Card className={cn('min-w-0', className)}>
      <section aria-labelledby={headingId}>
        <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 px-4 py-4 sm:px-5 dark:border-slate-800">
          <h2 id={headingId} className="font-semibold text-slate-900 dark:text-white">
            {title}
          </h2>
          {aside}
        </div>
        <div className={cn('p-4 sm:p-5', bodyClassName)}>{children}</div>
      </section>
    </Card>
  );
}

/** Label and value pairs, two columns from sm up. */
export function DetailList({ items, className }: { items: Array<{ label: string; value: ReactNode }>; className?: string }) {
  return (
    <dl className={cn('grid gap-x-6 gap-y-4 sm:grid-cols-2', className)}>
      {items.map(({ label, value }) => (
        <div key={label} className="min-w-0">
          <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase dark:text-slate-400">{label}</dt>
          <dd className="mt-1 text-sm break-words text-slate-900 dark:text-slate-100">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** What a missing value reads as. */
export function NotProvided({ children }: { children?: ReactNode }) {
  const { t } = useT('admin');
  return <span className="text-slate-400 dark:text-slate-500">{children ?? t('users.notProvided')}</span>;
}

import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { Button } from './button';

/** The search and filters above a list card's rows, on a row from sm up when `row` is set. */
export function ListToolbar({ row = false, children }: { row?: boolean; children: ReactNode }) {
  return (
    <div
      className={cn(
        'border-b border-slate-200 p-4 sm:p-5 dark:border-slate-800',
        row && 'flex flex-col gap-3 sm:flex-row sm:items-center',
      )}
    >
      {children}
    </div>
  );
}

/** A list card's heading, with what stands at its right (a count, an action). */
export function ListHeading({ title, children }: { title: ReactNode; children?: ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-3 px-4 pt-4 sm:px-5">
      <h2 className="font-semibold text-slate-900 dark:text-white">{title}</h2>
      {children}
    </div>
  );
}

/** How many rows a list shows, beside its heading. */
export function ListCount({ live = false, children }: { live?: boolean; children: ReactNode }) {
  return (
    <p className="text-sm text-slate-500 dark:text-slate-400" aria-live={live ? 'polite' : undefined}>
      {children}
    </p>
  );
}

type LoadMoreProps = {
  /** The paged query: Load more asks for its next page. */
  query: { hasNextPage: boolean; fetchNextPage: () => unknown; isFetchingNextPage: boolean; isPlaceholderData: boolean };
  label: string;
  /** What the end of the list says once every page is in, and whether it is reached. */
  endText: string;
  endReached?: boolean;
};

/** The foot of a list loaded page by page: Load more while pages remain, then a word that there are no more. */
export function LoadMore({ query, label, endText, endReached = true }: LoadMoreProps) {
  return (
    <div className="flex flex-col items-center gap-2 border-t border-slate-200 px-4 py-4 sm:px-5 dark:border-slate-800">
      {query.hasNextPage ? (
        <Button variant="outline" onClick={() => void query.fetchNextPage()} isLoading={query.isFetchingNextPage} disabled={query.isPlaceholderData}>
          {label}
        </Button>
      ) : (
        endReached && (
          <p role="status" className="text-sm text-slate-500 dark:text-slate-400">
            {endText}
          </p>
        )
      )}
    </div>
  );
}

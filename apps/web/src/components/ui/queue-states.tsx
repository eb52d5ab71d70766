import type { ReactNode } from 'react';
import { AlertTriangleIcon, CheckCircleIcon } from 'lucide-react';
import { Badge } from './badge';
import { Button } from './button';
import { LoadingBlock } from './load-state';

type QueueHeadingProps = {
  id: string;
  title: ReactNode;
  /** How many wait, once known: a warning while any do. */
  count: number | undefined;
  description: ReactNode;
};

/** A work queue's title with how many wait in it, and what the queue is for. */
export function QueueHeading({ id, title, count, description }: QueueHeadingProps) {
  return (
    <>
      <div className="flex items-center gap-2">
        <h2 id={id} className="font-semibold text-slate-900 dark:text-white">
          {title}
        </h2>
        {count !== undefined && <Badge tone={count > 0 ? 'warning' : 'neutral'}>{count}</Badge>}
      </div>
      <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{description}</p>
    </>
  );
}

type QueueStatesProps = {
  /** The query the queue comes from: its spinner while pending, its failure and Try again. */
  query: { isPending: boolean; isError: boolean; isFetching: boolean; refetch: () => unknown };
  isEmpty: boolean;
  loadingLabel: string;
  failedText: ReactNode;
  retryLabel: ReactNode;
  /** The one line that says there is nothing to do. */
  emptyText: ReactNode;
  /** The queue, once there is something in it. */
  children: ReactNode;
};

/**
 * The body of a short work queue on a card: a spinner while it loads, a one-line failure with Try again, a one-line
 * all-clear when it is empty, or the queue.
 */
export function QueueStates({ query, isEmpty, loadingLabel, failedText, retryLabel, emptyText, children }: QueueStatesProps) {
  if (query.isPending) return <LoadingBlock label={loadingLabel} className="py-8" />;
  if (query.isError) {
    return (
      <div className="flex flex-wrap items-center justify-between gap-3 px-4 py-4 sm:px-5">
        <p className="flex items-center gap-2 text-sm text-rose-700 dark:text-rose-300">
          <AlertTriangleIcon className="h-4 w-4 shrink-0" />
          {failedText}
        </p>
        <Button variant="outline" size="sm" onClick={() => void query.refetch()} isLoading={query.isFetching}>
          {retryLabel}
        </Button>
      </div>
    );
  }
  if (isEmpty) {
    return (
      <p role="status" className="flex items-center gap-2 px-4 py-4 text-sm text-slate-600 sm:px-5 dark:text-slate-300">
        <CheckCircleIcon className="h-4 w-4 shrink-0 text-emerald-500" />
        {emptyText}
      </p>
    );
  }
  return children;
}

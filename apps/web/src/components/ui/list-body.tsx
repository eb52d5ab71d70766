import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { LoadFailed, LoadingBlock } from './load-state';

type ListBodyProps = {
  /** The query the list comes from: its spinner while pending, its Try again on failure. */
  query: { isPending: boolean; isFetching: boolean; refetch: () => unknown };
  /** Whether to show the failure instead of the list (a list that has rows may keep them through a failed refresh). */
  failed: boolean;
  loadingLabel: string;
  /** The spinner's space, where the card wants more or less than the default. */
  loadingClassName?: string;
  failedTitle: ReactNode;
  /** A compact card's failure: the small Try again button, announced at once (role="alert"). */
  compactFailure?: boolean;
  isEmpty: boolean;
  /** What the list shows when it is empty: an EmptyState, with a way out of the search if one is on. */
  empty: ReactNode;
  /** The rows, once there are some. */
  children: ReactNode;
};

/** A list card's body: a spinner while it loads, the failure with Try again, the empty state, or the rows. */
export function ListBody({ query, failed, loadingLabel, loadingClassName, failedTitle, compactFailure, isEmpty, empty, children }: ListBodyProps) {
  if (query.isPending) return <LoadingBlock label={loadingLabel} className={loadingClassName} />;
  if (failed) {
    if (!compactFailure) return <LoadFailed title={failedTitle} query={query} />;
    return (
      <div role="alert">
        <LoadFailed title={failedTitle} query={query} size="sm" />
      </div>
    );
  }
  if (isEmpty) return empty;
  return children;
}

type ListRowsProps = {
  /** Whether the rows are being fetched again (aria-busy). */
  busy?: boolean;
  /** Whether the rows are the last search's or page's, shown faded until the new ones arrive. */
  stale: boolean;
  children: ReactNode;
};

/** The table of a list card, faded while it waits for the rows that replace it. */
export function ListRows({ busy, stale, children }: ListRowsProps) {
  return (
    <div aria-busy={busy || undefined} className={cn('mt-3 transition-opacity', stale && 'opacity-60')}>
      {children}
    </div>
  );
}

import type { ReactNode } from 'react';
import { LoadFailed, LoadingBlock } from '@/components/ui/load-state';

type ListStatesProps<Item> = {
  /** The query the list comes from: its spinner while pending, its Try again on failure. */
  query: { isPending: boolean; refetch: () => unknown; isFetching: boolean };
  items: Item[] | undefined;
  /** Whether to show the failure instead of the list. */
  failed: boolean;
  loading: { label: string; className: string };
  failedTitle: ReactNode;
  empty: ReactNode;
  /** The list, once there is something in it. */
  children: (items: Item[]) => ReactNode;
};

/** A wallet list's body: a spinner while it loads, the failure with Try again, the empty state, or the list. */
export function ListStates<Item>({ query, items, failed, loading, failedTitle, empty, children }: ListStatesProps<Item>) {
  if (query.isPending) return <LoadingBlock label={loading.label} className={loading.className} />;
  if (failed) {
    return (
      <div role="alert">
        <LoadFailed title={failedTitle} query={query} size="sm" />
      </div>
    );
  }
  if (!items?.length) return empty;
  return children(items);
}

import { useMemo, useState } from 'react';
import { messages, type AdminTransaction } from '@terrafund/contracts';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ListCount, ListHeading, ListToolbar, LoadMore } from '@/components/ui/list-parts';
import { EmptyState } from '@/components/ui/empty-state';
import { ListBody, ListRows } from '@/components/ui/list-body';
import { ArrowLeftRightIcon, SearchIcon } from 'lucide-react';
import { SearchField } from '@/components/ui/search-field';
import { useUrlFilters } from '@/lib/use-url-filters';
import { useAdminTransactions } from '../api/get-admin-transactions';
import { TransactionDetailDialog } from './transaction-detail-dialog';
import { TransactionsTable } from './transactions-table';
import { useT } from '@/lib/i18n';

/** The server's limit on a search (adminTransactionsQuery): longer input is never sent to be refused. */
const SEARCH_MAX_LENGTH = 100;

/**
 * Every member's transactions, newest first, searched by the server (the search lives in the URL) and
 * loaded 20 at a time with Load More until a page comes back empty (docs/product.md §7.4 Transactions and withdrawal decisions). A row opens its
 * details, where a pending withdrawal is decided.
 */
export function TransactionsList() {
  const search = useUrlFilters({ maxLength: SEARCH_MAX_LENGTH, searchHistory: 'replace' });
  const query = useAdminTransactions(search.term);
  const [selected, setSelected] = useState<AdminTransaction | null>(null);
  const { t, say } = useT('admin');

  const rows = useMemo(() => {
    // Pages asked for by number alone can overlap when new transactions arrive between two of them;
    // the first copy of a row is kept, so no row shows twice.
    const seen = new Set<string>();
    return (query.data?.pages ?? []).flatMap((page) => page.items)
      .filter((item) => {
        if (seen.has(item._id)) return false;
        seen.add(item._id);
        return true;
      });
  }, [query.data]);

  // The dialog shows the row as it is now in the list (a decision updates it), or as it was when opened
  // if a new search has since replaced the list.
  const open = selected ? (rows.find((row) => row._id === selected._id) ?? selected) : null;
  const endReached = query.data !== undefined && !query.hasNextPage && !query.isPlaceholderData;

  return (
    <Card className="overflow-hidden">
      <ListToolbar>
        <SearchField
          id="transactions-search"
          label={t('transactions.list.searchLabel')}
          placeholder={t('transactions.list.searchPlaceholder')}
          maxLength={SEARCH_MAX_LENGTH}
          {...search.searchField}
        />
      </ListToolbar>

      <ListHeading title={t('transactions.list.title')}>
        {query.data && !query.isPlaceholderData && rows.length > 0 && (
          <ListCount>
            {t('transactions.list.shown', { count: rows.length })}
          </ListCount>
        )}
      </ListHeading>

      <ListBody
        query={query}
        failed={query.isError && !query.data}
        loadingLabel={t('transactions.list.loading')}
        failedTitle={say(messages.admin.transactionsFailed)}
        isEmpty={rows.length === 0}
        empty={
          search.term ? (
            <EmptyState
              icon={<SearchIcon className="h-5 w-5" />}
              title={t('transactions.list.emptySearch')}
              description={t('transactions.list.noMatch', { term: search.term })}
              action={<Button onClick={search.clearSearch}>{t('transactions.list.clearSearch')}</Button>}
            />
          ) : (
            <EmptyState icon={<ArrowLeftRightIcon className="h-5 w-5" />} title={t('transactions.list.empty')} />
          )
        }
      >
        <ListRows busy={query.isFetching && !query.isFetchingNextPage} stale={query.isPlaceholderData}>
          <TransactionsTable transactions={rows} caption={t('transactions.list.title')} onOpen={setSelected} />
        </ListRows>
        <LoadMore query={query} label={t('transactions.list.loadMore')} endText={t('transactions.list.noMore')} endReached={endReached} />
      </ListBody>

      {open && <TransactionDetailDialog key={open._id} transaction={open} onClose={() => setSelected(null)} />}
    </Card>
  );
}

import { useSearchParams } from 'react-router';
import { ADMIN_PAGE_SIZE, messages, type UserWithKyc } from '@terrafund/contracts';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ListCount, ListHeading, ListToolbar } from '@/components/ui/list-parts';
import { EmptyState } from '@/components/ui/empty-state';
import { ListBody, ListRows } from '@/components/ui/list-body';
import { ShieldCheckIcon, UsersIcon } from 'lucide-react';
import { SearchField } from '@/components/ui/search-field';
import { Pagination } from '@/components/ui/pagination';
import { useUrlFilters } from '@/lib/use-url-filters';
import { usePendingUsers } from '../api/get-pending-users';
import { useUsers } from '../api/get-users';
import { useT } from '@/lib/i18n';
import { UsersTable } from './users-table';

function readPage(value: string | null) {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

function matches(user: UserWithKyc, term: string) {
  const needle = term.toLowerCase();
  return `${user.firstName} ${user.lastName}`.toLowerCase().includes(needle) || user.email.toLowerCase().includes(needle);
}

/**
 * All users, searched and paged by the server; or, with "View Pending KYC", the users waiting for a KYC
 * decision (the server answers them all at once, so the search and the pages are applied here). The
 * search, the view and the page live in the URL, so a reload or the Back button keeps them.
 */
export function UsersList() {
  const [params, setParams] = useSearchParams();
  const { t, say } = useT('admin');
  const search = useUrlFilters({ trim: false, searchHistory: 'replace', resetOnSearch: ['page'] });
  const pendingView = params.get('view') === 'pending';
  const page = readPage(params.get('page'));

  const allUsers = useUsers({ search: search.term, page }, { enabled: !pendingView });
  const pendingUsers = usePendingUsers({ enabled: pendingView });
  const query = pendingView ? pendingUsers : allUsers;

  let rows: UserWithKyc[] = [];
  let total = 0;
  if (pendingView && pendingUsers.data) {
    const found = search.term ? pendingUsers.data.filter((user) => matches(user, search.term)) : pendingUsers.data;
    total = found.length;
    rows = found.slice((page - 1) * ADMIN_PAGE_SIZE, page * ADMIN_PAGE_SIZE);
  } else if (!pendingView && allUsers.data) {
    total = allUsers.data.total;
    rows = allUsers.data.items;
  }
  const pageCount = Math.max(1, Math.ceil(total / ADMIN_PAGE_SIZE));
  const filtered = search.term !== '' || pendingView || page > 1;

  const goToPage = (next: number) =>
    setParams((current) => {
      const updated = new URLSearchParams(current);
      if (next > 1) updated.set('page', String(next));
      else updated.delete('page');
      return updated;
    });

  const togglePending = () =>
    setParams((current) => {
      const updated = new URLSearchParams(current);
      if (pendingView) updated.delete('view');
      else updated.set('view', 'pending');
      updated.delete('page');
      return updated;
    });

  const failureText = pendingView ? messages.kyc.loadPendingFailed : messages.kyc.loadUsersFailed;
  const heading = pendingView ? t('users.list.pendingTitle') : t('users.list.allTitle');

  return (
    <Card className="overflow-hidden">
      <ListToolbar row>
        <SearchField
          id="users-search"
          label={t('users.list.searchLabel')}
          placeholder={t('users.list.searchPlaceholder')}
          wrapperClassName="flex-1"
          {...search.searchField}
        />
        <Button variant={pendingView ? 'secondary' : 'outline'} aria-pressed={pendingView} onClick={togglePending}>
          {pendingView ? <UsersIcon className="h-4 w-4" /> : <ShieldCheckIcon className="h-4 w-4" />}
          {pendingView ? t('users.list.viewAll') : t('users.list.viewPending')}
        </Button>
      </ListToolbar>

      <ListHeading title={heading}>
        {query.data && !query.isError && (
          <ListCount>
            {t('users.list.count', { count: total })}
          </ListCount>
        )}
      </ListHeading>

      <ListBody
        query={query}
        failed={query.isError}
        loadingLabel={t('users.list.loading')}
        failedTitle={say(failureText)}
        isEmpty={rows.length === 0}
        empty={
          <EmptyState
            title={pendingView && !search.term ? t('users.list.emptyPending') : t('users.list.empty')}
            description={
              search.term ? t('users.list.noMatch', { term: search.term }) : pendingView ? t('users.list.allReviewed') : undefined
            }
            action={filtered && <Button onClick={search.clear}>{t('users.list.clearFilters')}</Button>}
          />
        }
      >
        <ListRows busy={query.isFetching} stale={query.isPlaceholderData}>
          <UsersTable users={rows} caption={heading} />
        </ListRows>
        {pageCount > 1 && (
          <div className="border-t border-slate-200 px-4 py-3 sm:px-5 dark:border-slate-800">
            <Pagination label={t('users.list.pages')} page={page} pageCount={pageCount} onPageChange={goToPage} disabled={query.isPlaceholderData} />
          </div>
        )}
      </ListBody>
    </Card>
  );
}

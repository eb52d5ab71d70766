import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { usePageDebounce } from '@/lib/use-page-debounce';
import { PROJECT_STATUSES, type ProjectStatus } from '@terrafund/contracts';
import type { AdminProjectsFilter } from '../api/get-projects';

export const SEARCH_DEBOUNCE_MS = 300;

const statusFrom = (value: string | null): ProjectStatus | '' =>
  value !== null && (PROJECT_STATUSES as readonly string[]).includes(value) ? (value as ProjectStatus) : '';

/**
 * The list's search and status filter, kept in the URL (?search=&status=) so a reload or the Back button
 * shows the same list. The search box follows every keystroke; the URL, and so the request, follows once
 * typing pauses. A URL changed elsewhere (Back, Clear filters) refills the box.
 */
export function useListFilters() {
  const [params, setParams] = useSearchParams();
  const term = (params.get('search') ?? '').trim();
  const status = statusFrom(params.get('status'));

  const [search, setSearch] = useState(term);
  const [synced, setSynced] = useState(term);
  if (term !== synced) {
    setSynced(term);
    setSearch(term);
  }

  const debounce = usePageDebounce(SEARCH_DEBOUNCE_MS);

  const write = useCallback(
    (name: 'search' | 'status', value: string, replace: boolean) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (value) next.set(name, value);
          else next.delete(name);
          return next;
        },
        { replace },
      ),
    [setParams],
  );

  const onSearchChange = useCallback(
    (value: string) => {
      setSearch(value);
      debounce.schedule(() => {
        const next = value.trim();
        if (next === term) return;
        setSynced(next);
        // Refining a search replaces the history entry, so Back undoes the whole search at once.
        write('search', next, term !== '');
      });
    },
    [debounce, term, write],
  );

  const setStatus = useCallback((value: ProjectStatus | '') => write('status', value, false), [write]);

  const clear = useCallback(() => {
    debounce.cancel();
    setSearch('');
    setSynced('');
    setParams(new URLSearchParams());
  }, [debounce, setParams]);

  const applied = useMemo<AdminProjectsFilter>(() => ({ search: term, status }), [term, status]);
  return { applied, search, onSearchChange, setStatus, clear, active: Boolean(term || status) };
}

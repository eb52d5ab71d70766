import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { usePageDebounce } from '@/lib/use-page-debounce';
import { PROJECT_STATUSES, PROJECT_TYPES, type ProjectStatus, type ProjectType } from '@terrafund/contracts';
import type { ProjectFilters } from '../api/get-projects';

export const SEARCH_DEBOUNCE_MS = 300;

/** A value from the address bar, if it is one of the allowed ones; anything else (a typo, an old link) means "all". */
function pick<T extends string>(allowed: readonly T[], value: string | null): T | '' {
  return value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : '';
}

/**
 * The catalogue's filters, kept in the URL (?search=&type=&status=) so that a reload, a shared link and the
 * Back and Forward buttons all show the same results. The search box follows every keystroke; the URL, and
 * so the request, follows once typing pauses. Starting a search and changing a filter add a history entry;
 * refining a search replaces it, so Back undoes a search in one step instead of one letter at a time.
 */
export function useProjectFilters() {
  const [params, setParams] = useSearchParams();
  const term = (params.get('search') ?? '').trim();
  const type = pick<ProjectType>(PROJECT_TYPES, params.get('type'));
  const status = pick<ProjectStatus>(PROJECT_STATUSES, params.get('status'));

  const [search, setSearch] = useState(term);
  // The URL value the box last agreed with: a different one came from elsewhere (Back, Clear filters) and refills it.
  const [synced, setSynced] = useState(term);
  if (term !== synced) {
    setSynced(term);
    setSearch(term);
  }

  const debounce = usePageDebounce(SEARCH_DEBOUNCE_MS);

  const update = useCallback(
    (name: 'search' | 'type' | 'status', value: string, replace: boolean) =>
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
        // Agreed before the URL changes, so the new term does not refill the box over what is typed since.
        setSynced(next);
        update('search', next, term !== '');
      });
    },
    [debounce, term, update],
  );

  const setType = useCallback((value: ProjectType | '') => update('type', value, false), [update]);
  const setStatus = useCallback((value: ProjectStatus | '') => update('status', value, false), [update]);

  const clear = useCallback(() => {
    debounce.cancel();
    setSearch('');
    setSynced('');
    setParams(new URLSearchParams());
  }, [debounce, setParams]);

  const applied = useMemo<ProjectFilters>(() => ({ search: term, type, status }), [term, type, status]);

  return { applied, search, onSearchChange, setType, setStatus, clear, active: Boolean(term || type || status) };
}

import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { usePageDebounce } from '@/lib/use-page-debounce';

export const SEARCH_DEBOUNCE_MS = 300;

type Allowed = Readonly<Record<string, readonly string[]>>;
type FilterValues<F extends Allowed> = { [K in keyof F]: F[K][number] | '' };

export interface UrlFiltersOptions<F extends Allowed> {
  /** The query parameter of the search box. */
  name?: string;
  delay?: number;
  /** A hand-edited address longer than the server accepts is cut rather than sent to be refused. */
  maxLength?: number;
  /** Whether the address's search is read trimmed (the box always writes it trimmed). */
  trim?: boolean;
  /**
   * 'refine': starting a search adds a history entry and refining it replaces that entry, so Back undoes a
   * search in one step instead of one letter at a time; 'replace': a search never adds a history entry.
   */
  searchHistory?: 'refine' | 'replace';
  /** Other parameters a new search drops (the page it was on). */
  resetOnSearch?: readonly string[];
  /** Select filters kept beside the search: each parameter and its allowed values. */
  filters?: F;
}

/** A value from the address bar, if it is one of the allowed ones; anything else (a typo, an old link) means "all". */
function pick(allowed: readonly string[], value: string | null): string {
  return value !== null && allowed.includes(value) ? value : '';
}

/**
 * A list's search box and filters, kept in the URL (?search=&status=…) so that a reload, a shared link and
 * the Back and Forward buttons all show the same results. The box follows every keystroke; the URL, and
 * so the request, follows once typing pauses. A URL changed elsewhere (Back, Clear filters) refills the box.
 */
export function useUrlFilters<const F extends Allowed = Record<never, never>>({
  name = 'search',
  delay = SEARCH_DEBOUNCE_MS,
  maxLength,
  trim = true,
  searchHistory = 'refine',
  resetOnSearch = [],
  filters: allowed,
}: UrlFiltersOptions<F> = {}) {
  const [params, setParams] = useSearchParams();
  const raw = params.get(name) ?? '';
  const term = (trim ? raw.trim() : raw).slice(0, maxLength);

  const filterKey = Object.keys(allowed ?? {})
    .map((key) => `${key}=${pick(allowed?.[key] ?? [], params.get(key))}`)
    .join('&');
  const filters = useMemo(
    () => Object.fromEntries(new URLSearchParams(filterKey)) as FilterValues<F>,
    [filterKey],
  );

  const [value, setValue] = useState(term);
  // The URL value the box last agreed with (its own write, or a value it was refilled from): a different
  // one came from elsewhere and refills the box.
  const [synced, setSynced] = useState(term);
  if (term !== synced) {
    setSynced(term);
    setValue(term);
  }

  const debounce = usePageDebounce(delay);

  const write = useCallback(
    (key: string, next: string, replace: boolean, drop: readonly string[] = []) =>
      setParams(
        (current) => {
          if ((current.get(key) ?? '') === next) return current;
          const updated = new URLSearchParams(current);
          if (next) updated.set(key, next);
          else updated.delete(key);
          for (const other of drop) updated.delete(other);
          return updated;
        },
        { replace },
      ),
    [setParams],
  );

  const resetKey = resetOnSearch.join('&');
  const onSearchChange = useCallback(
    (input: string) => {
      setValue(input);
      debounce.schedule(() => {
        const next = input.trim();
        if (next === term) return;
        // Agreed before the URL changes, so the new term does not refill the box over what is typed since.
        setSynced(next);
        write(name, next, searchHistory === 'replace' || term !== '', resetKey ? resetKey.split('&') : []);
      });
    },
    [debounce, term, write, name, searchHistory, resetKey],
  );

  const setFilter = useCallback(
    <K extends keyof F & string>(key: K, next: FilterValues<F>[K]) => write(key, next, false),
    [write],
  );

  /** Empties the box and the URL's search at once, forgetting a search still waiting to be sent. */
  const clearSearch = useCallback(() => {
    debounce.cancel();
    setValue('');
    setSynced('');
    write(name, '', true);
  }, [debounce, write, name]);

  /** Empties the box and every parameter of the address (search, filters, page). */
  const clear = useCallback(() => {
    debounce.cancel();
    setValue('');
    setSynced('');
    setParams(new URLSearchParams());
  }, [debounce, setParams]);

  /** The search box's binding, to spread on a SearchField. */
  const searchField = useMemo(() => ({ value, onValueChange: onSearchChange }), [value, onSearchChange]);
  /** One filter's binding, to spread on a FilterSelect; values outside the allowed ones read back as "all". */
  const filterField = useCallback(
    <K extends keyof F & string>(key: K) => ({
      value: filters[key],
      onValueChange: (next: string) => setFilter(key, next as FilterValues<F>[K]),
    }),
    [filters, setFilter],
  );

  /** What the list asks the server for: the search and every filter, one object while they stay the same. */
  const applied = useMemo(() => ({ search: term, ...filters }), [term, filters]);
  const active = term !== '' || Object.values(filters).some(Boolean);
  return { term, value, onSearchChange, searchField, filters, filterField, applied, setFilter, clearSearch, clear, active };
}

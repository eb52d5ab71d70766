import { useCallback, useState } from 'react';
import { useSearchParams } from 'react-router';
import { usePageDebounce } from '@/lib/use-page-debounce';

export const SEARCH_DEBOUNCE_MS = 300;

/**
 * A search box bound to a URL query parameter. The box follows every keystroke; the URL, and so the
 * request, follows once typing pauses (going back to the first page); a change of the URL made elsewhere
 * (Clear Filters, the Back button) refills the box.
 */
export function useUrlSearch(name = 'search', delay = SEARCH_DEBOUNCE_MS) {
  const [params, setParams] = useSearchParams();
  const term = params.get(name) ?? '';
  const [value, setValue] = useState(term);
  // What this box last wrote to the URL, and the URL value it last saw: together they tell our own
  // writes (the box already shows them) from changes made elsewhere.
  const [written, setWritten] = useState(term);
  const [seen, setSeen] = useState(term);
  if (term !== seen) {
    setSeen(term);
    if (term !== written) {
      setValue(term);
      setWritten(term);
    }
  }

  const debounce = usePageDebounce(delay);

  const onChange = useCallback(
    (next: string) => {
      setValue(next);
      debounce.schedule(() => {
        const nextTerm = next.trim();
        setWritten(nextTerm);
        setParams(
          (current) => {
            if ((current.get(name) ?? '') === nextTerm) return current;
            const updated = new URLSearchParams(current);
            if (nextTerm) updated.set(name, nextTerm);
            else updated.delete(name);
            updated.delete('page');
            return updated;
          },
          { replace: true },
        );
      });
    },
    [debounce, name, setParams],
  );

  /** Empties the box and forgets a search still waiting to be sent; the caller clears the URL. */
  const clear = useCallback(() => {
    debounce.cancel();
    setValue('');
    setWritten('');
  }, [debounce]);

  return { value, onChange, clear, term };
}

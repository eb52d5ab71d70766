import { useCallback, useState } from 'react';
import { useSearchParams } from 'react-router';
import { usePageDebounce } from '@/lib/use-page-debounce';

export const SEARCH_DEBOUNCE_MS = 300;

/**
 * A search box bound to a URL query parameter. The box follows every keystroke; the URL, and so the
 * request, follows once typing pauses; a change of the URL made elsewhere (the Back button) refills the box.
 */
export function useUrlSearch({ name = 'search', delay = SEARCH_DEBOUNCE_MS, maxLength }: { name?: string; delay?: number; maxLength?: number } = {}) {
  const [params, setParams] = useSearchParams();
  // A hand-edited address longer than the server accepts is cut rather than sent to be refused.
  const term = (params.get(name) ?? '').trim().slice(0, maxLength);
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

  const write = useCallback(
    (nextTerm: string) => {
      setWritten(nextTerm);
      setParams(
        (current) => {
          if ((current.get(name) ?? '') === nextTerm) return current;
          const updated = new URLSearchParams(current);
          if (nextTerm) updated.set(name, nextTerm);
          else updated.delete(name);
          return updated;
        },
        { replace: true },
      );
    },
    [name, setParams],
  );

  const onChange = useCallback(
    (next: string) => {
      setValue(next);
      debounce.schedule(() => write(next.trim()));
    },
    [debounce, write],
  );

  /** Empties the box and the URL at once, forgetting a search still waiting to be sent. */
  const clear = useCallback(() => {
    debounce.cancel();
    setValue('');
    write('');
  }, [debounce, write]);

  return { value, onChange, clear, term };
}

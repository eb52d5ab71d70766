import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useLocation, useNavigation } from 'react-router';

/**
 * A debounce for writes to this page's address (a search box's `?search=`): `schedule(fn)` runs fn once
 * `delay` ms pass without another call; `cancel()` forgets it. A click anywhere while a write waits runs it
 * at once, before the click's own handler: the person has stopped typing, and a write left waiting would
 * otherwise land after the navigation the click starts (a card, "View details") and send them back here.
 * It is also forgotten on unmount and as soon as a navigation to another page starts.
 */
export function usePageDebounce(delay: number) {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const pending = useRef<(() => void) | undefined>(undefined);

  const cancel = useCallback(() => {
    clearTimeout(timer.current);
    pending.current = undefined;
  }, []);

  useEffect(() => {
    // Capture phase on the document runs before React's handlers on the root, so the write goes first
    // and the click's navigation, coming second, wins.
    const flush = () => {
      const fn = pending.current;
      if (!fn) return;
      cancel();
      fn();
    };
    document.addEventListener('click', flush, true);
    return () => {
      document.removeEventListener('click', flush, true);
      cancel();
    };
  }, [cancel]);

  const navigation = useNavigation();
  const { pathname } = useLocation();
  const leaving = navigation.location !== undefined && navigation.location.pathname !== pathname;
  useEffect(() => {
    if (leaving) cancel();
  }, [leaving, cancel]);

  const schedule = useCallback(
    (fn: () => void) => {
      clearTimeout(timer.current);
      pending.current = fn;
      timer.current = setTimeout(() => {
        pending.current = undefined;
        fn();
      }, delay);
    },
    [delay],
  );
  return useMemo(() => ({ schedule, cancel }), [schedule, cancel]);
}

import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useLocation, useNavigation } from 'react-router';

/**
 * A debounce for writes to this page's address (a search box's `?search=`): `schedule(fn)` runs fn once
 * `delay` ms pass without another call; `cancel()` forgets it. It also forgets it on unmount and as soon as a
 * navigation to another page starts: the screen stays mounted while the next one loads, and a write still
 * waiting would navigate back here, cancelling the click the person just made (a card, "View details").
 */
export function usePageDebounce(delay: number) {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const navigation = useNavigation();
  const { pathname } = useLocation();
  const leaving = navigation.location !== undefined && navigation.location.pathname !== pathname;
  useEffect(() => {
    if (leaving) clearTimeout(timer.current);
  }, [leaving]);

  const schedule = useCallback(
    (fn: () => void) => {
      clearTimeout(timer.current);
      timer.current = setTimeout(fn, delay);
    },
    [delay],
  );
  const cancel = useCallback(() => clearTimeout(timer.current), []);
  return useMemo(() => ({ schedule, cancel }), [schedule, cancel]);
}

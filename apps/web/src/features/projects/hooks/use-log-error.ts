import { useEffect } from 'react';

/** Spec section 8: a dashboard or list load failure is logged only, with no user message. */
export function useLogError(error: unknown, what: string) {
  useEffect(() => {
    if (error) console.error(`Failed to load ${what}`, error);
  }, [error, what]);
}

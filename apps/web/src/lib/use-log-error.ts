import { useEffect } from 'react';

/** docs/product.md §2.7: a dashboard or list load failure is logged only, with no user message. */
export function useLogError(error: unknown, what: string) {
  useEffect(() => {
    if (error) console.error(`Failed to load ${what}`, error);
  }, [error, what]);
}

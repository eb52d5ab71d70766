import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';

/**
 * Fetches the signed-in user again when the wallet opens, and says when that is done. The user the app
 * holds may be minutes old, and this screen is where its balance and membership matter: a withdrawal is
 * asked against the balance, and a plan paid a moment ago decides which view to show. A failed refresh
 * keeps the user already held (lib/auth logs it).
 */
export function useProfileRefresh(): boolean {
  const queryClient = useQueryClient();
  const [done, setDone] = useState(false);

  useEffect(() => {
    let active = true;
    void queryClient.refetchQueries({ queryKey: queryKeys.profile(), exact: true }).finally(() => {
      if (active) setDone(true);
    });
    return () => {
      active = false;
    };
  }, [queryClient]);

  return done;
}

import { useMutation } from '@tanstack/react-query';
import type { UnsubscribeBody, UnsubscribeResponse } from '@terrafund/contracts';
import { api } from '@/lib/api-client';

/** POST /api/unsubscribe {token}: no session needed; 200 {kind, message}, or 400 {message} for a bad link. */
export const unsubscribe = (body: UnsubscribeBody) => api.post<UnsubscribeResponse>('/unsubscribe', body);

export function useUnsubscribe() {
  return useMutation({
    mutationFn: unsubscribe,
    // The page shows the outcome in place, not as a toast.
    meta: { skipGlobalToast: true, skipSessionExpiry: true },
  });
}

import { useMutation } from '@tanstack/react-query';
import type { CloseAccountBody, MessageResponse } from '@terrafund/contracts';
import { api } from '@/lib/api-client';

/**
 * POST /api/users/close {password | code, confirm: "CLOSE"}: 200 {message} once closed (every session ended), or
 * 409 {message} with the reason it cannot be closed yet (a balance to withdraw, a withdrawal or payment under way,
 * an investment in a project not yet ended).
 */
export const closeAccount = (body: CloseAccountBody) => api.post<MessageResponse>('/users/close', body);

export function useCloseAccount() {
  return useMutation({
    mutationFn: closeAccount,
    // The form shows the refusal (under the field, or the reason above the button) itself.
    meta: { skipGlobalToast: true },
  });
}

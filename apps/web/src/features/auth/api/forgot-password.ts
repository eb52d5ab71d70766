import { useMutation } from '@tanstack/react-query';
import type { EmailOnlyBody, MessageResponse } from '@terrafund/contracts';
import { api } from '@/lib/api-client';

/** Answers the same whether or not the address has an account (docs/product.md §3.6 Passwords). */
export const forgotPassword = (body: EmailOnlyBody) => api.post<MessageResponse>('/users/forgot-password', body);

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword, meta: { skipGlobalToast: true, skipSessionExpiry: true } });
}

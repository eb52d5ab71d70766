import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordBody, MessageResponse } from '@terrafund/contracts';
import { api } from '@/lib/api-client';

export const changePassword = (body: ChangePasswordBody) => api.post<MessageResponse>('/users/change-password', body);

export function useChangePassword() {
  // The form shows the failure under its fields and in its own toast (docs/product.md §10 Messages).
  return useMutation({ mutationFn: changePassword, meta: { skipGlobalToast: true } });
}

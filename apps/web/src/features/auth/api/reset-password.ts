import { useMutation } from '@tanstack/react-query';
import type { MessageResponse, ResetPasswordBody } from '@terrafund/contracts';
import { api } from '@/lib/api-client';

export const resetPassword = (body: ResetPasswordBody) => api.post<MessageResponse>('/users/reset-password', body);

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword, meta: { skipGlobalToast: true, skipSessionExpiry: true } });
}

import { useMutation } from '@tanstack/react-query';
import type { EmailOnlyBody, MessageResponse } from '@terrafund/contracts';
import { api } from '@/lib/api-client';

export const resendOtp = (body: EmailOnlyBody) => api.post<MessageResponse>('/users/resend-otp', body);

export function useResendOtp() {
  return useMutation({ mutationFn: resendOtp, meta: { skipGlobalToast: true, skipSessionExpiry: true } });
}

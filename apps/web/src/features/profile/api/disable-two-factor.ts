import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageResponse, TwoFactorDisableBody } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { profileQueryKey } from '@/lib/auth';

export const disableTwoFactor = (body: TwoFactorDisableBody) => api.post<MessageResponse>('/users/2fa/disable', body);

export function useDisableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disableTwoFactor,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: profileQueryKey }),
    meta: { skipGlobalToast: true },
  });
}

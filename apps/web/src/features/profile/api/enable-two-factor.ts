import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RecoveryCodes, TwoFactorEnableBody } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { profileQueryKey } from '@/lib/auth';

export const enableTwoFactor = (body: TwoFactorEnableBody) => api.post<RecoveryCodes>('/users/2fa/enable', body);

export function useEnableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: enableTwoFactor,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: profileQueryKey }),
    // The form shows a wrong code under its field.
    meta: { skipGlobalToast: true },
  });
}

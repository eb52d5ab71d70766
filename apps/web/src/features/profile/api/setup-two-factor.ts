import { useMutation } from '@tanstack/react-query';
import type { TwoFactorSetup, TwoFactorSetupBody } from '@terrafund/contracts';
import { api } from '@/lib/api-client';

export const setupTwoFactor = (body: TwoFactorSetupBody) => api.post<TwoFactorSetup>('/users/2fa/setup', body);

/**
 * A new authenticator secret, for the account's password (nothing is on until a code confirms it). The flow
 * shows a refused password under its field, so the global error toast stays silent.
 */
export function useSetupTwoFactor() {
  return useMutation({ mutationFn: setupTwoFactor, meta: { skipGlobalToast: true } });
}

import { useMutation } from '@tanstack/react-query';
import type { TwoFactorSetup } from '@terrafund/contracts';
import { api } from '@/lib/api-client';

export const setupTwoFactor = () => api.post<TwoFactorSetup>('/users/2fa/setup');

/** A new authenticator secret (nothing is on until a code confirms it). */
export function useSetupTwoFactor() {
  return useMutation({ mutationFn: setupTwoFactor });
}

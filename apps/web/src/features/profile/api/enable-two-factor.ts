import type { RecoveryCodes, TwoFactorEnableBody } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { useTwoFactorMutation } from './two-factor-mutation';

export const enableTwoFactor = (body: TwoFactorEnableBody) => api.post<RecoveryCodes>('/users/2fa/enable', body);

export const useEnableTwoFactor = () => useTwoFactorMutation(enableTwoFactor);

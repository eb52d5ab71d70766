import type { MessageResponse, TwoFactorDisableBody } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { useTwoFactorMutation } from './two-factor-mutation';

export const disableTwoFactor = (body: TwoFactorDisableBody) => api.post<MessageResponse>('/users/2fa/disable', body);

export const useDisableTwoFactor = () => useTwoFactorMutation(disableTwoFactor);

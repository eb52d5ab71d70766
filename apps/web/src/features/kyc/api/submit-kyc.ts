import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { messages, type KycStatus, type KycSubmitBody, type User, type UserWithKyc } from '@terrafund/contracts';
import { api, errorMessage } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { localizeMessage } from '@terrafund/contracts/i18n';
import { i18n } from '@/lib/i18n';
import { toastSuccess } from '@/lib/toasts';

export const submitKyc = (body: KycSubmitBody) => api.post<UserWithKyc>('/kyc/submit', body);

export const submitKycMutationKey = ['kyc', 'submit'] as const;

/**
 * Submits the wizard. The status turns pending at once (docs/product.md §4.1 Statuses) and goes back to what it was
 * if the server refuses; either way the user is fetched again afterwards.
 */
export function useSubmitKyc() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: submitKycMutationKey,
    mutationFn: submitKyc,
    onMutate: async (): Promise<{ previousStatus?: KycStatus }> => {
      // A profile refresh still on its way would overwrite the optimistic status.
      await queryClient.cancelQueries({ queryKey: queryKeys.profile() });
      const previousStatus = queryClient.getQueryData<User>(queryKeys.profile())?.kycStatus;
      queryClient.setQueryData<User>(queryKeys.profile(), (user) => user && { ...user, kycStatus: 'pending' });
      return { previousStatus };
    },
    onError: (error, _body, context) => {
      const previousStatus = context?.previousStatus;
      if (previousStatus) queryClient.setQueryData<User>(queryKeys.profile(), (user) => user && { ...user, kycStatus: previousStatus });
      toast.error(errorMessage(error, localizeMessage(i18n.t, messages.kyc.submitFailed)));
    },
    onSuccess: (user) => {
      queryClient.setQueryData<User>(queryKeys.profile(), user);
      toastSuccess(messages.kyc.submitted);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.profile() }),
    meta: { skipGlobalToast: true },
  });
}

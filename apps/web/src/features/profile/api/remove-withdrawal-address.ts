import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { messages } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { localizeMessage } from '@terrafund/contracts/i18n';
import { i18n } from '@/lib/i18n';

export const removeWithdrawalAddress = (id: string) => api.delete<void>(`/users/withdrawal-addresses/${encodeURIComponent(id)}`);

/** Removes an address from the book: the next withdrawal to it is confirmed by mail again. */
export function useRemoveWithdrawalAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeWithdrawalAddress,
    onSuccess: () => {
      toast.success(localizeMessage(i18n.t, messages.withdrawals.addressRemoved));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.withdrawalAddresses() }),
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messages } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { toastSuccess } from '@/lib/toasts';

export const removeWithdrawalAddress = (id: string) => api.delete<void>(`/users/withdrawal-addresses/${encodeURIComponent(id)}`);

/** Removes an address from the book: the next withdrawal to it is confirmed by mail again. */
export function useRemoveWithdrawalAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeWithdrawalAddress,
    onSuccess: () => toastSuccess(messages.withdrawals.addressRemoved),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.withdrawalAddresses() }),
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messages, type Transaction } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { refreshWalletMoney } from './create-withdrawal';
import { toastSuccess } from '@/lib/toasts';

/** POST /api/transactions/{id}/cancel: the member's own pending withdrawal, not yet handed to the provider. */
export const cancelWithdrawal = (id: string) => api.post<Transaction>(`/transactions/${encodeURIComponent(id)}/cancel`);

/**
 * Cancels a pending withdrawal: the amount is back in the wallet at once. A refusal (409: already sent, or
 * decided meanwhile) is the server's own words in a toast (the global handler), and the wallet is fetched
 * again either way, so the list shows where the withdrawal really is.
 */
export function useCancelWithdrawal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelWithdrawal,
    onSuccess: () => toastSuccess(messages.withdrawals.cancelled),
    onSettled: () => refreshWalletMoney(queryClient),
  });
}

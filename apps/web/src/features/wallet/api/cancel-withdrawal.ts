import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { messages, type Transaction } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { refreshWalletMoney } from './create-withdrawal';
import { localizeMessage } from '@terrafund/contracts/i18n';
import { i18n } from '@/lib/i18n';

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
    onSuccess: () => {
      toast.success(localizeMessage(i18n.t, messages.withdrawals.cancelled));
    },
    onSettled: () => refreshWalletMoney(queryClient),
  });
}

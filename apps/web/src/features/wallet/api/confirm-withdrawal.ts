import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Transaction } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { refreshWalletMoney } from './create-withdrawal';

/** POST /api/withdrawals/confirm {token}: the mailed link's token is the credential, so no session is needed. */
export const confirmWithdrawal = (token: string) => api.post<Transaction>('/withdrawals/confirm', { token });

/** Confirms a withdrawal to a new address; the page shows the outcome itself, success or refusal. */
export function useConfirmWithdrawal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmWithdrawal,
    // A member signed in on this browser sees the withdrawal move on (or, expired, the amount back) in the wallet.
    onSettled: () => refreshWalletMoney(queryClient),
    meta: { skipGlobalToast: true },
  });
}

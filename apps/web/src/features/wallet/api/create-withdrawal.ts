import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { messages, type CreateWithdrawalBody, type Transaction } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { toastSuccess } from '@/lib/toasts';

export type WithdrawalInput = Omit<CreateWithdrawalBody, 'type'>;

/**
 * Requests a withdrawal of one coin to one address, confirmed with the password or the 2FA code: the amount leaves
 * the balance at once and waits, pending, for an admin (and first, for a new address, for the mailed link).
 */
export const createWithdrawal = (input: WithdrawalInput) =>
  api.post<{ transaction: Transaction }>('/transactions', { type: 'withdrawal', ...input });

/** What a withdrawal changes (requested, cancelled, confirmed): the balance (the profile), the history and the dashboard. */
export const refreshWalletMoney = (queryClient: QueryClient) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.profile(), exact: true }),
    queryClient.invalidateQueries({ queryKey: queryKeys.transactions() }),
    queryClient.invalidateQueries({ queryKey: queryKeys.dashboard(), exact: true }),
  ]);

/**
 * POST /api/transactions {type: "withdrawal", amount, walletAddress, asset, password | code}. The spec reloads the page after a
 * request (section 4); here the data the request changed is fetched again instead: the balance (the
 * profile), the history and the dashboard, without losing the app's state to a full reload.
 */
export function useCreateWithdrawal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createWithdrawal,
    // Here rather than in the form, so it is said even if the panel was closed while the request was on its way.
    onSuccess: ({ transaction }) => {
      if (transaction.awaitingConfirmation) {
        // A first withdrawal to this address waits for the mailed link; the member must know to look for it.
        toastSuccess(messages.withdrawals.requestedNewAddress, { duration: 10_000 });
      } else {
        toastSuccess(messages.wallet.withdrawalRequested(String(transaction.amount)));
      }
    },
    // After a refusal too: "Insufficient balance" or the KYC refusal usually means the screen is out of date.
    onSettled: () => refreshWalletMoney(queryClient),
    // The form puts a refusal under its field, or toasts it (docs/product.md §10 Messages), itself.
    meta: { skipGlobalToast: true },
  });
}

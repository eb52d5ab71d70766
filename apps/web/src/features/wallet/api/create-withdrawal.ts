import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { messages, type CreateWithdrawalBody, type Transaction } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { profileQueryKey } from '@/lib/auth';
import { transactionsKey } from './get-transactions';

export type WithdrawalInput = Omit<CreateWithdrawalBody, 'type'>;

/** Requests a withdrawal: the amount leaves the balance at once and waits, pending, for an admin. */
export const createWithdrawal = (input: WithdrawalInput) =>
  api.post<{ transaction: Transaction }>('/transactions', { type: 'withdrawal', ...input });

/**
 * The dashboard's figures (GET /users/dashboard: wallet balance, total assets). The key belongs to the
 * dashboard feature, which this feature may not import; it is repeated here, and must stay equal to it.
 */
const dashboardKey = ['users', 'dashboard'] as const;

/**
 * POST /api/transactions {type: "withdrawal", amount, walletAddress}. The spec reloads the page after a
 * request (section 4); here the data the request changed is fetched again instead: the balance (the
 * profile), the history and the dashboard, without losing the app's state to a full reload.
 */
export function useCreateWithdrawal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createWithdrawal,
    // Here rather than in the form, so it is said even if the panel was closed while the request was on its way.
    onSuccess: ({ transaction }) => {
      toast.success(messages.wallet.withdrawalRequested(String(transaction.amount)));
    },
    // After a refusal too: "Insufficient balance" or the KYC refusal usually means the screen is out of date.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: profileQueryKey, exact: true }),
        queryClient.invalidateQueries({ queryKey: transactionsKey }),
        queryClient.invalidateQueries({ queryKey: dashboardKey, exact: true }),
      ]),
    // The form puts a refusal under its field, or toasts it (docs/product.md §10 Messages), itself.
    meta: { skipGlobalToast: true },
  });
}

import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { useT } from '@/lib/i18n';
import { messages, type Transaction, type WithdrawalDecisionBody } from '@terrafund/contracts';
import { api, errorMessage, isApiError } from '@/lib/api-client';
import type { AdminTransactionsPage, AdminTransactionsPageParam } from './get-admin-transactions';
import { queryKeys } from '@/lib/query-keys';

export type UpdateWithdrawalStatusInput = { id: string } & WithdrawalDecisionBody;

/**
 * Approves (the payout provider then sends it; at or above the dual-approval threshold, the first approval answers
 * 202 and waits for a second admin), completes (PAYOUT_PROVIDER=manual, with the transaction hash) or fails (with
 * an optional reason; the amount is refunded) a pending withdrawal.
 */
export const updateWithdrawalStatus = ({ id, ...body }: UpdateWithdrawalStatusInput) =>
  api.patch<Transaction>(`/transactions/${encodeURIComponent(id)}/status`, body);

type ListData = InfiniteData<AdminTransactionsPage, AdminTransactionsPageParam>;

/** The loaded pages with one transaction replaced by the server's answer; the answer has no member, so it is kept. */
function withTransaction(data: ListData, updated: Transaction): ListData {
  return {
    ...data,
    pages: data.pages.map((page) =>
      page.items.some((item) => item._id === updated._id)
        ? { ...page, items: page.items.map((item) => (item._id === updated._id ? { ...item, ...updated, user: item.user } : item)) }
        : page,
    ),
  };
}

/**
 * Spec section 8: "Failed to update withdrawal status." A refusal the server explains (409: decided by
 * someone else meanwhile; 404; 403) is clearer in its own words; a 5xx or a lost connection is not.
 */
function failureMessage(error: unknown) {
  const fallback = messages.wallet.withdrawalUpdateFailed;
  return isApiError(error) && error.status >= 400 && error.status < 500 ? errorMessage(error, fallback) : fallback;
}

export function useUpdateWithdrawalStatus() {
  const queryClient = useQueryClient();
  const { say } = useT('admin');
  return useMutation({
    mutationFn: updateWithdrawalStatus,
    onSuccess: (updated) => {
      // The row changes at once, in every loaded search, without waiting for the lists to be fetched again.
      queryClient.setQueriesData<ListData>({ queryKey: queryKeys.admin.transactionLists() }, (data) => data && withTransaction(data, updated));
      // Still waiting for approval after an approval: the 202 of a first approval above the threshold.
      if (updated.status === 'pending' && updated.stage === 'awaiting_approval') toast.success(say(messages.withdrawals.approvalRecorded));
      else toast.success(say(messages.wallet.withdrawalUpdated));
    },
    // Also after a failure: a 409 means another admin decided first, and the screen should show that decision.
    // Not awaited: the row is already right, so the decision is done without waiting for every loaded page.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.admin.transactionLists() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.admin.transactionDetails() });
      // The admin dashboard's figures and its recent transactions count withdrawals too.
      void queryClient.invalidateQueries({ queryKey: queryKeys.admin.stats(), exact: true });
      void queryClient.invalidateQueries({ queryKey: queryKeys.admin.recentTransactions(), exact: true });
    },
    meta: { errorToast: failureMessage },
  });
}

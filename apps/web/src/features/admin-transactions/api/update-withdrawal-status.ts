import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { messages, type Transaction, type WithdrawalDecisionBody } from '@terrafund/contracts';
import { api, errorMessage, isApiError } from '@/lib/api-client';
import { adminTransactionsKey, type AdminTransactionsPage, type AdminTransactionsPageParam } from './get-admin-transactions';

export type UpdateWithdrawalStatusInput = { id: string } & WithdrawalDecisionBody;

/**
 * The admin dashboard's figures and its recent transactions (features/admin-dashboard/api) both count
 * withdrawals. Features do not import each other, so their keys are repeated here by value; the list test
 * opens the dashboard after a decision to keep the two in step.
 */
const adminDashboardStatsKey = ['admin', 'dashboard', 'stats'] as const;
const adminDashboardRecentKey = ['admin', 'dashboard', 'transactions'] as const;

/** Completes (optionally with the payout's transaction hash) or fails a pending withdrawal; failing refunds it. */
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
  return useMutation({
    mutationFn: updateWithdrawalStatus,
    onSuccess: (updated) => {
      // The row changes at once, in every loaded search, without waiting for the lists to be fetched again.
      queryClient.setQueriesData<ListData>({ queryKey: adminTransactionsKey }, (data) => data && withTransaction(data, updated));
      toast.success(messages.wallet.withdrawalUpdated);
    },
    // Also after a failure: a 409 means another admin decided first, and the screen should show that decision.
    // Not awaited: the row is already right, so the decision is done without waiting for every loaded page.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: adminTransactionsKey });
      void queryClient.invalidateQueries({ queryKey: adminDashboardStatsKey, exact: true });
      void queryClient.invalidateQueries({ queryKey: adminDashboardRecentKey, exact: true });
    },
    meta: { errorToast: failureMessage },
  });
}

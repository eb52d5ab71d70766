import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { messages, type HeldPayment, type ReviewDecisionBody } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { heldPaymentsKey } from './get-held-payments';

export type DecideHeldPaymentInput = { id: string } & ReviewDecisionBody;

/**
 * What a decision changes outside this feature, named by value because features do not import each other:
 * activating completes a deposit, so every loaded transactions list (each search has its own key under this
 * one), the admin dashboard's figures and recent transactions, and the member's detail page are stale.
 */
const adminTransactionsListKey = ['admin', 'transactions', 'list'] as const;
const adminDashboardStatsKey = ['admin', 'dashboard', 'stats'] as const;
const adminDashboardRecentKey = ['admin', 'dashboard', 'transactions'] as const;
const adminUserDetailKey = (userId: string) => ['admin', 'users', 'detail', userId] as const;

/** Activates the pack of a held payment, or rejects the payment; the note is kept with the decision. */
export const decideHeldPayment = ({ id, ...body }: DecideHeldPaymentInput) =>
  api.post<HeldPayment>(`/admin/payments/${encodeURIComponent(id)}/review`, body);

export function useDecideHeldPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decideHeldPayment,
    onSuccess: (_payment, { decision }) => {
      toast.success(decision === 'activate' ? messages.payments.activated : messages.payments.rejected);
    },
    // Also after a failure: a 409 means another admin decided first, and the list should no longer offer it.
    onSettled: (payment) => {
      void queryClient.invalidateQueries({ queryKey: heldPaymentsKey, exact: true });
      void queryClient.invalidateQueries({ queryKey: adminTransactionsListKey });
      void queryClient.invalidateQueries({ queryKey: adminDashboardStatsKey, exact: true });
      void queryClient.invalidateQueries({ queryKey: adminDashboardRecentKey, exact: true });
      if (payment) void queryClient.invalidateQueries({ queryKey: adminUserDetailKey(payment.user._id), exact: true });
    },
    // The confirmation dialog shows a refusal beside the payment it is about (409: decided by someone else).
    meta: { skipGlobalToast: true },
  });
}

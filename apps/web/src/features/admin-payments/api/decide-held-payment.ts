import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { useT } from '@/lib/i18n';
import { messages, type HeldPayment, type ReviewDecisionBody } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export type DecideHeldPaymentInput = { id: string } & ReviewDecisionBody;

/** Activates the pack of a held payment, or rejects the payment; the note is kept with the decision. */
export const decideHeldPayment = ({ id, ...body }: DecideHeldPaymentInput) =>
  api.post<HeldPayment>(`/admin/payments/${encodeURIComponent(id)}/review`, body);

export function useDecideHeldPayment() {
  const queryClient = useQueryClient();
  const { say } = useT('admin');
  return useMutation({
    mutationFn: decideHeldPayment,
    onSuccess: (_payment, { decision }) => {
      toast.success(say(decision === 'activate' ? messages.payments.activated : messages.payments.rejected));
    },
    // Also after a failure: a 409 means another admin decided first, and the list should no longer offer it.
    // Activating completes a deposit: every loaded transactions list (whatever its search), the admin dashboard's
    // figures and recent transactions, and the member's detail page are stale too.
    onSettled: (payment) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.admin.heldPayments(), exact: true });
      void queryClient.invalidateQueries({ queryKey: queryKeys.admin.transactionLists() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.admin.stats(), exact: true });
      void queryClient.invalidateQueries({ queryKey: queryKeys.admin.recentTransactions(), exact: true });
      if (payment) void queryClient.invalidateQueries({ queryKey: queryKeys.admin.userDetail(payment.user._id), exact: true });
    },
    // The confirmation dialog shows a refusal beside the payment it is about (409: decided by someone else).
    meta: { skipGlobalToast: true },
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messages, type DepositResponse } from '@terrafund/contracts';
import { api, errorMessage } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { localizeMessage } from '@terrafund/contracts/i18n';
import { i18n } from '@/lib/i18n';

/** Starts a plan purchase: the server opens an invoice at the payment provider for the plan's price. */
export const createDeposit = (plan: string) => api.post<DepositResponse>('/transactions', { type: 'deposit', plan });

/**
 * The provider's checkout address, if it is one the browser may be sent to. Only http(s): the answer
 * decides where the whole page goes, so a `javascript:` or `data:` address is refused, whoever sent it.
 */
export function checkoutUrl(paymentUrl: string): string | null {
  try {
    const url = new URL(paymentUrl, window.location.origin);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * POST /api/transactions {type: "deposit", plan}, then the browser goes to the provider's checkout
 * (docs/product.md §5.4 Payment providers, step 3). Nothing is paid until the provider's signed notification arrives.
 */
export function useCreateDeposit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (plan: string) => {
      const answer = await createDeposit(plan);
      const url = checkoutUrl(answer.payment_url);
      // Not an ApiError: the global handler then shows "Failed to process deposit.".
      if (!url) throw new Error(`Unusable payment_url: ${answer.payment_url}`);
      return { ...answer, payment_url: url };
    },
    onSuccess: ({ payment_url }) => {
      // The pending deposit is in the history if the member comes back without paying.
      void queryClient.invalidateQueries({ queryKey: queryKeys.transactions() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.packPayments() });
      window.location.assign(payment_url);
    },
    // Spec section 8: the server's message, or "Failed to process deposit.", once, by the global handler.
    meta: { errorToast: (error) => errorMessage(error, localizeMessage(i18n.t, messages.wallet.depositFailed)) },
  });
}

import { queryOptions, useQuery } from '@tanstack/react-query';
import { messages, type HeldPayment } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** The payments held for an admin's review; a decision makes it stale. */
/** Every payment held for review (partial, late, over- or mismatched money), newest first. */
export const getHeldPayments = (signal?: AbortSignal) => api.get<HeldPayment[]>('/admin/payments/review', { signal });

export const heldPaymentsQueryOptions = () => queryOptions({ queryKey: queryKeys.admin.heldPayments(), queryFn: ({ signal }) => getHeldPayments(signal) });

export function useHeldPayments() {
  return useQuery({ ...heldPaymentsQueryOptions(), meta: { errorToast: messages.payments.loadFailed } });
}

import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PackPayment } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** The member's pack payments: what starting a deposit makes stale. */
/** Every pack payment of the caller, newest first, with its status (GET /api/payments). */
export const getPackPayments = (signal?: AbortSignal) => api.get<PackPayment[]>('/payments', { signal });

export const packPaymentsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.packPayments(), queryFn: ({ signal }) => getPackPayments(signal) });

export function usePackPayments() {
  // The failure is shown in the Deposit tab itself, with Try again; a toast as well would say it twice.
  return useQuery({ ...packPaymentsQueryOptions(), meta: { skipGlobalToast: true } });
}

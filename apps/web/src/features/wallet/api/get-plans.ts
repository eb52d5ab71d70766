import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Plan } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** The four packs with their prices, dividends and features (docs/product.md §9.1 General: GET /api/plans, public). */
export const getPlans = (signal?: AbortSignal) => api.get<Plan[]>('/plans', { signal });

export const plansQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.plans(),
    queryFn: ({ signal }) => getPlans(signal),
    // The packs are constants of the product; they do not change while the page is open.
    staleTime: 60 * 60_000,
    // The plan panel shows a failure in place of the cards, with a way to try again.
    meta: { skipGlobalToast: true },
  });

export const usePlans = () => useQuery(plansQueryOptions());

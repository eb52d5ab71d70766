import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ProjectionPeriod, ProjectionPoint } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** The range the dashboard's chart opens on (docs/product.md §5.11 Projection). */
export const FIRST_PROJECTION_PERIOD: ProjectionPeriod = '1M';

/** The cumulative projection over one range, a point a day; an empty array without a membership. */
export const getInvestmentPerformance = (period: ProjectionPeriod, signal?: AbortSignal) =>
  api.get<ProjectionPoint[]>('/users/investment-performance', { params: { period }, signal });

export const investmentPerformanceQueryOptions = (period: ProjectionPeriod) =>
  queryOptions({
    queryKey: queryKeys.investmentPerformance(period),
    queryFn: ({ signal }) => getInvestmentPerformance(period, signal),
    // Spec section 8: a dashboard load failure is logged only, with no user message.
    meta: { skipGlobalToast: true },
  });

export function useInvestmentPerformance(period: ProjectionPeriod) {
  return useQuery({
    ...investmentPerformanceQueryOptions(period),
    // The chart keeps the last range on screen while the next one loads.
    placeholderData: keepPreviousData,
  });
}

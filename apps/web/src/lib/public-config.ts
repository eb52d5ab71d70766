import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PublicConfig } from '@terrafund/contracts';
import { api } from './api-client';

/**
 * The contact details (CONTACT_EMAIL, CONTACT_PHONE): what pages drawn at build carry on #root and the app starts
 * from (app/drawn-page.ts), so this query may hold only them.
 */
export type ContactConfig = Pick<PublicConfig, 'contactEmail' | 'contactPhone'>;

/** GET /api/config: every public setting. */
export const getPublicConfig = () => api.get<PublicConfig>('/config');

export const publicConfigQueryOptions = () =>
  queryOptions<ContactConfig>({ queryKey: ['public-config'], queryFn: getPublicConfig, staleTime: Infinity });

export const usePublicConfig = () => useQuery({ ...publicConfigQueryOptions(), meta: { skipGlobalToast: true } });

/**
 * The withdrawal settings of GET /api/config (the coins with their fees, the payout provider, the limits), under a
 * key of their own: a drawn page seeds the contact details alone, which must not pass for the whole answer.
 */
export const withdrawalConfigQueryOptions = () =>
  queryOptions({ queryKey: ['public-config', 'withdrawals'], queryFn: getPublicConfig, staleTime: Infinity });

export const useWithdrawalConfig = () => useQuery({ ...withdrawalConfigQueryOptions(), meta: { skipGlobalToast: true } });

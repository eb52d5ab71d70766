import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PublicConfig } from '@terrafund/contracts';
import { api } from './api-client';

/** Contact details, configured on the server (CONTACT_EMAIL, CONTACT_PHONE). */
export const getPublicConfig = () => api.get<PublicConfig>('/config');

export const publicConfigQueryOptions = () =>
  queryOptions({ queryKey: ['public-config'], queryFn: getPublicConfig, staleTime: Infinity });

export const usePublicConfig = () => useQuery({ ...publicConfigQueryOptions(), meta: { skipGlobalToast: true } });

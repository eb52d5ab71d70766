import { queryOptions, useQuery } from '@tanstack/react-query';
import type { WithdrawalAddress } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { i18n } from '@/lib/i18n';

/** The member's confirmed withdrawal addresses: what a confirmation link adds and Remove takes away. */
export const getWithdrawalAddresses = () => api.get<WithdrawalAddress[]>('/users/withdrawal-addresses');

export const withdrawalAddressesQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.withdrawalAddresses(),
    queryFn: getWithdrawalAddresses,
    meta: { errorToast: () => i18n.t('profile:addresses.loadFailed') },
  });

export function useWithdrawalAddresses() {
  return useQuery(withdrawalAddressesQueryOptions());
}

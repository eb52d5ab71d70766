import { useState } from 'react';
import { isWithdrawalAssetId, withdrawalAsset, type WithdrawalAddress } from '@terrafund/contracts';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { LoadingBlock } from '@/components/ui/load-state';
import { formatDateTime } from '@/lib/format';
import { i18n, useT } from '@/lib/i18n';
import { useWithdrawalAddresses } from '../api/get-withdrawal-addresses';
import { useRemoveWithdrawalAddress } from '../api/remove-withdrawal-address';
import { ProfileCard } from './profile-card';

/** The coin as the member chose it: "Bitcoin", "Tether on Tron"; an id the catalogue does not know, as it is. */
function coinName(asset: string) {
  if (!isWithdrawalAssetId(asset)) return asset;
  const { name, network } = withdrawalAsset(asset);
  return name === network ? name : i18n.t('profile:addresses.coinOnNetwork', { name, network });
}

/** Asks before removing: the next withdrawal to the address will need the mailed link again. */
function RemoveDialog({ address, onClose }: { address: WithdrawalAddress | null; onClose: () => void }) {
  const remove = useRemoveWithdrawalAddress();
  const { t } = useT('profile');
  return (
    <ConfirmDialog
      open={address !== null}
      onClose={onClose}
      title={t('addresses.dialogTitle')}
      description={t('addresses.dialogText')}
      keepLabel={t('addresses.keep')}
      confirmLabel={t('addresses.remove')}
      isPending={remove.isPending}
      onConfirm={() => address && remove.mutate(address.id, { onSettled: onClose })}
    >
      {address && (
        <p>
          {coinName(address.asset)}: <span className="font-mono text-xs break-all text-slate-900 dark:text-white">{address.address}</span>
        </p>
      )}
    </ConfirmDialog>
  );
}

/**
 * Profile → Withdrawal addresses: the addresses the member confirmed from a mailed link (their address book), with the
 * coin, when confirmed and last used, and Remove. A withdrawal to a booked address needs no mail.
 */
export function WithdrawalAddressesCard() {
  const addresses = useWithdrawalAddresses();
  const [removing, setRemoving] = useState<WithdrawalAddress | null>(null);
  const { t } = useT('profile');

  return (
    <ProfileCard id="withdrawal-addresses-title" title={t('addresses.title')} description={t('addresses.description')}>
      <div className="px-5 py-3 sm:px-6">
        {addresses.isPending ? (
          <LoadingBlock label={t('addresses.loading')} className="py-6" />
        ) : addresses.isError ? (
          <p className="py-3 text-sm text-slate-500">{t('addresses.loadFailed')}</p>
        ) : addresses.data.length === 0 ? (
          <p className="py-3 text-sm text-slate-500 dark:text-slate-400">
            {t('addresses.empty')}
          </p>
        ) : (
          <ul aria-label={t('addresses.title')} className="divide-y divide-slate-200 dark:divide-slate-800">
            {addresses.data.map((address) => (
              <li key={address.id} className="flex items-center gap-3 py-3">
                <div className="min-w-0 flex-1">
                  <p className="text-sm font-medium text-slate-900 dark:text-white">{coinName(address.asset)}</p>
                  <p className="font-mono text-xs break-all text-slate-700 dark:text-slate-300">{address.address}</p>
                  <p className="text-xs text-slate-500 dark:text-slate-400">
                    {t('addresses.confirmed', { date: formatDateTime(address.confirmedAt) })} ·{' '}
                    {address.lastUsedAt ? t('addresses.lastUsed', { date: formatDateTime(address.lastUsedAt) }) : t('addresses.notUsed')}
                  </p>
                </div>
                <Button variant="outline" size="sm" onClick={() => setRemoving(address)} aria-label={t('addresses.removeLabel', { coin: coinName(address.asset), address: address.address })}>
                  {t('addresses.remove')}
                </Button>
              </li>
            ))}
          </ul>
        )}
      </div>
      <RemoveDialog address={removing} onClose={() => setRemoving(null)} />
    </ProfileCard>
  );
}

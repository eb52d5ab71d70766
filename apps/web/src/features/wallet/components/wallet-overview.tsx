import { useState } from 'react';
import type { User } from '@terrafund/contracts';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { WalletIcon } from 'lucide-react';
import { PageHeader } from '@/components/ui/page-header';
import { formatUsd } from '@/lib/format';
import { useT } from '@/lib/i18n';
import { MembershipCard } from './membership-card';
import { PackPayments } from './pack-payments';
import { PendingWithdrawals } from './pending-withdrawals';
import { TransactionHistory } from './transaction-history';
import { WalletCardHeading } from './wallet-card-heading';
import { WithdrawSheet } from './withdraw-sheet';

/** The wallet view (docs/product.md §2.5 Member screens): the membership, the balance with Withdraw, and the history. */
export function WalletOverview({ user, onSwitchPlan }: { user: User; onSwitchPlan: () => void }) {
  const [withdrawing, setWithdrawing] = useState(false);
  const { t } = useT('wallet');

  return (
    <div className="space-y-6">
      <PageHeader
        title={t('page.title')}
        description={t('overview.description')}
        actions={
          <Button variant="outline" onClick={onSwitchPlan}>
            {t('overview.switchPlan')}
          </Button>
        }
      />

      <div className="grid gap-4 md:grid-cols-2">
        <MembershipCard user={user} onRenew={onSwitchPlan} />

        <Card role="group" aria-labelledby="wallet-balance-title" className="flex flex-col p-5 sm:p-6">
          <WalletCardHeading id="wallet-balance-title" title={t('overview.balance')} icon={WalletIcon}>
            <p className="mt-2 text-2xl font-semibold tracking-tight text-slate-900 tabular-nums dark:text-white">{formatUsd(user.balance)}</p>
            <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{t('overview.available')}</p>
          </WalletCardHeading>
          <div className="mt-auto pt-4">
            <Button className="w-full sm:w-auto" onClick={() => setWithdrawing(true)}>
              {t('overview.withdraw')}
            </Button>
          </div>
        </Card>
      </div>

      <PendingWithdrawals />

      <PackPayments />

      <TransactionHistory />

      <WithdrawSheet user={user} open={withdrawing} onClose={() => setWithdrawing(false)} />
    </div>
  );
}

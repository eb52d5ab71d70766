import { useState } from 'react';
import type { User } from '@terrafund/contracts';
import { capitalize } from '@/components/money/transaction-cells';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { CoinIcon, WalletIcon } from '@/components/ui/icons';
import { PageHeader } from '@/components/ui/page-header';
import { formatDate, formatUsd } from '@/lib/format';
import { PackPayments } from './pack-payments';
import { TransactionHistory } from './transaction-history';
import { WithdrawSheet } from './withdraw-sheet';

const orNotAvailable = (date: string | null) => (date ? formatDate(date) : 'N/A');

/** The wallet view (spec section 2): the membership, the balance with Withdraw, and the history. */
export function WalletOverview({ user, onSwitchPlan }: { user: User; onSwitchPlan: () => void }) {
  const [withdrawing, setWithdrawing] = useState(false);

  return (
    <div className="space-y-6">
      <PageHeader
        title="Plan"
        description="Your membership, your wallet balance and every movement of your money."
        actions={
          <Button variant="outline" onClick={onSwitchPlan}>
            Switch Plan
          </Button>
        }
      />

      <div className="grid gap-4 md:grid-cols-2">
        <Card role="group" aria-labelledby="wallet-membership-title" className="p-5 sm:p-6">
          <div className="flex items-start justify-between gap-3">
            <div className="min-w-0">
              <h2 id="wallet-membership-title" className="text-sm font-medium text-slate-500 dark:text-slate-400">
                Current membership
              </h2>
              <p className="mt-2 text-2xl font-semibold tracking-tight text-slate-900 dark:text-white">
                {capitalize(user.membershipLevel ?? '')}
              </p>
            </div>
            <span className="flex h-9 w-9 shrink-0 items-center justify-center rounded-xl bg-emerald-50 text-emerald-600 dark:bg-emerald-500/10 dark:text-emerald-400">
              <CoinIcon className="h-5 w-5" />
            </span>
          </div>
          <dl className="mt-4 grid grid-cols-2 gap-4 text-sm">
            <div>
              <dt className="text-slate-500 dark:text-slate-400">Start date</dt>
              <dd className="mt-0.5 font-medium text-slate-900 dark:text-white">{orNotAvailable(user.membershipStartDate)}</dd>
            </div>
            <div>
              <dt className="text-slate-500 dark:text-slate-400">End date</dt>
              <dd className="mt-0.5 font-medium text-slate-900 dark:text-white">{orNotAvailable(user.membershipEndDate)}</dd>
            </div>
          </dl>
        </Card>

        <Card role="group" aria-labelledby="wallet-balance-title" className="flex flex-col p-5 sm:p-6">
          <div className="flex items-start justify-between gap-3">
            <div className="min-w-0">
              <h2 id="wallet-balance-title" className="text-sm font-medium text-slate-500 dark:text-slate-400">
                Wallet balance
              </h2>
              <p className="mt-2 text-2xl font-semibold tracking-tight text-slate-900 tabular-nums dark:text-white">
                {formatUsd(user.balance)}
              </p>
              <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">Available for withdrawal</p>
            </div>
            <span className="flex h-9 w-9 shrink-0 items-center justify-center rounded-xl bg-emerald-50 text-emerald-600 dark:bg-emerald-500/10 dark:text-emerald-400">
              <WalletIcon className="h-5 w-5" />
            </span>
          </div>
          <div className="mt-auto pt-4">
            <Button className="w-full sm:w-auto" onClick={() => setWithdrawing(true)}>
              Withdraw
            </Button>
          </div>
        </Card>
      </div>

      <PackPayments />

      <TransactionHistory />

      <WithdrawSheet user={user} open={withdrawing} onClose={() => setWithdrawing(false)} />
    </div>
  );
}

import { messages, type User } from '@terrafund/contracts';
import { capitalize } from '@/components/money/transaction-cells';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { CoinsIcon } from 'lucide-react';
import { formatDate } from '@/lib/format';
import { useT } from '@/lib/i18n';
import { WalletCardHeading } from './wallet-card-heading';

/**
 * The wallet's membership card: the pack with its start and end dates while it runs; once it has ended
 * (3 years after activation, decisions: memberships end), the pack marked Ended with its end date and an
 * offer of a new pack (renewal is buying a pack again, `onRenew` opens the plan chooser).
 */
export function MembershipCard({ user, onRenew }: { user: User; onRenew: () => void }) {
  const { t, say } = useT('wallet');
  const orNotAvailable = (date: string | null | undefined) => (date ? formatDate(date) : t('membership.notAvailable'));
  const current = user.currentMembership;
  const ended = current?.status === 'ended';
  const pack = ended ? current.pack : (user.membershipLevel ?? current?.pack ?? '');
  // The end day is the last paid day (a date, shown as such); the start is the activation instant.
  const startDate = ended ? current.startedAt : user.membershipStartDate;
  const endDate = current?.lastPaidDay ?? user.membershipEndDate;

  return (
    <Card role="group" aria-labelledby="wallet-membership-title" className="p-5 sm:p-6">
      <WalletCardHeading id="wallet-membership-title" title={ended ? t('membership.last') : t('membership.current')} icon={CoinsIcon}>
        <p className="mt-2 flex flex-wrap items-center gap-2 text-2xl font-semibold tracking-tight text-slate-900 dark:text-white">
          <span>{capitalize(pack)}</span>
          {ended ? <Badge tone="neutral">{t('membership.ended')}</Badge> : <Badge tone="success">{t('membership.active')}</Badge>}
        </p>
      </WalletCardHeading>
      <dl className="mt-4 grid grid-cols-2 gap-4 text-sm">
        <div>
          <dt className="text-slate-500 dark:text-slate-400">{t('membership.startDate')}</dt>
          <dd className="mt-0.5 font-medium text-slate-900 dark:text-white">{orNotAvailable(startDate)}</dd>
        </div>
        <div>
          <dt className="text-slate-500 dark:text-slate-400">{ended ? t('membership.endedOn') : t('membership.endDate')}</dt>
          <dd className="mt-0.5 font-medium text-slate-900 dark:text-white">{orNotAvailable(endDate)}</dd>
        </div>
      </dl>
      {ended && (
        <div className="mt-4 space-y-3 border-t border-slate-200 pt-4 dark:border-slate-800">
          <p className="text-sm text-slate-600 dark:text-slate-300">
            {say(messages.membership.ended)}. {say(messages.membership.renew)}
          </p>
          <Button onClick={onRenew}>{say(messages.membership.renewButton)}</Button>
        </div>
      )}
    </Card>
  );
}

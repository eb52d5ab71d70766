import { useState } from 'react';
import { usePrefetchQuery } from '@tanstack/react-query';
import { Spinner } from '@/components/ui/spinner';
import { useUser } from '@/lib/auth';
import { useT } from '@/lib/i18n';
import { plansQueryOptions } from '../api/get-plans';
import { useProfileRefresh } from '../hooks/use-profile-refresh';
import { PackPayments } from './pack-payments';
import { PlanChooser } from './plan-chooser';
import { WalletOverview } from './wallet-overview';

/**
 * /wallet, labelled Plan (docs/product.md §2.1 Route table). A member with a membership sees it, the balance, the history
 * and the withdraw panel; one without, or one who pressed "Switch Plan", sees the plan chooser (spec
 * section 4: the wallet toggles between the two).
 *
 * The spec's page waits about a second before showing anything. Here the spinner stays exactly as long as
 * the member's fresh balance and membership take to arrive, which decide what the page shows; no delay is
 * added on top.
 */
export function WalletPage() {
  const user = useUser();
  const { t } = useT('wallet');
  const profileReady = useProfileRefresh();
  const [choosingPlan, setChoosingPlan] = useState(false);
  // Asked for at once, in parallel with the profile, so that the chooser (and "Switch Plan") opens with its cards.
  usePrefetchQuery(plansQueryOptions());

  if (!profileReady) {
    return (
      <div className="flex justify-center py-24">
        <title>{t('page.documentTitle')}</title>
        <Spinner size="lg" label={t('page.loading')} />
      </div>
    );
  }

  // An ended membership is still shown (marked Ended, with a new pack offered: MembershipCard).
  const hasMembership = Boolean(user.membershipLevel ?? user.currentMembership);
  return (
    <>
      <title>{t('page.documentTitle')}</title>
      {hasMembership && !choosingPlan ? (
        <WalletOverview user={user} onSwitchPlan={() => setChoosingPlan(true)} />
      ) : (
        <div className="space-y-6">
          <PlanChooser user={user} onBack={hasMembership ? () => setChoosingPlan(false) : undefined} />
          {/* The Deposit tab is there without a pack too: a first payment that expired must not vanish. */}
          <PackPayments />
        </div>
      )}
    </>
  );
}

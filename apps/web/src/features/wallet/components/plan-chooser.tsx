import { useEffect, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { messages, type User } from '@terrafund/contracts';
import { capitalize } from '@/components/money/transaction-cells';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ArrowLeftIcon } from 'lucide-react';
import { PageHeader } from '@/components/ui/page-header';
import { LoadingBlock } from '@/components/ui/load-state';
import { errorMessage } from '@/lib/api-client';
import { formatUsd } from '@/lib/format';
import { usePublicConfig } from '@/lib/public-config';
import { useT } from '@/lib/i18n';
import { useCreateDeposit } from '../api/create-deposit';
import { usePlans } from '../api/get-plans';
import { PlanCard } from './plan-card';

type PlanChooserProps = {
  user: User;
  /** Back to the wallet view; only a member who has a membership has one to go back to. */
  onBack?: () => void;
};

/**
 * "Choose New Plan" and the plan panel (docs/product.md §2.4 Public screens): the packs and Deposit, which sends the browser to the
 * payment provider's checkout for the chosen pack. There is no fixed deposit address: crypto sent to one would
 * credit nothing (docs/product.md, the wallet).
 */
export function PlanChooser({ user, onBack }: PlanChooserProps) {
  const plans = usePlans();
  const { t, say } = useT('wallet');
  const config = usePublicConfig();
  const deposit = useCreateDeposit();
  const [selected, setSelected] = useState<string | null>(null);
  // After a successful answer the browser is leaving for the checkout: the button stays busy until it has.
  const busy = deposit.isPending || deposit.isSuccess;

  // Back from the checkout, the browser may restore this page as it was left (back-forward cache), busy.
  const { reset: resetDeposit } = deposit;
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) resetDeposit();
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, [resetDeposit]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!selected) {
      toast.error(say(messages.wallet.planRequired), { id: 'plan-required' });
      return;
    }
    deposit.mutate(selected);
  };

  return (
    <div className="space-y-6">
      <PageHeader
        title={t('plans.title')}
        description={t('plans.description')}
        actions={
          onBack && (
            <Button variant="outline" onClick={onBack}>
              <ArrowLeftIcon className="h-4 w-4" />
              {t('plans.back')}
            </Button>
          )
        }
      />

      <Card>
        <form onSubmit={onSubmit} noValidate aria-labelledby="plan-panel-title" className="space-y-6 p-5 sm:p-6">
          <div className="flex flex-col gap-1 sm:flex-row sm:items-end sm:justify-between">
            <h2 id="plan-panel-title" className="text-lg font-semibold text-slate-900 dark:text-white">
              {t('plans.subscribe')}
            </h2>
            <p className="text-sm text-slate-500 dark:text-slate-400">
              {t('plans.balance')}{' '}
              <span className="font-semibold text-slate-900 tabular-nums dark:text-white">{formatUsd(user.balance)}</span>
            </p>
          </div>

          {plans.isPending ? (
            <LoadingBlock label={t('plans.loading')} className="py-12" />
          ) : plans.isError ? (
            <Alert
              tone="danger"
              title={t('plans.failed')}
              action={
                <Button variant="outline" size="sm" isLoading={plans.isFetching} onClick={() => void plans.refetch()}>
                  {t('plans.retry')}
                </Button>
              }
            >
              {errorMessage(plans.error, say(messages.common.unexpected))}
            </Alert>
          ) : (
            <fieldset>
              <legend className="sr-only">{t('plans.legend')}</legend>
              <div className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3">
                {plans.data.map((plan) => (
                  <PlanCard
                    key={plan.id}
                    plan={plan}
                    selected={selected === plan.id}
                    current={plan.id === user.membershipLevel?.toLowerCase()}
                    onSelect={() => setSelected(plan.id)}
                  />
                ))}
              </div>
            </fieldset>
          )}

          {user.membershipLevel && (
            <p className="text-sm text-slate-600 dark:text-slate-300">
              {t('plans.replaced', { pack: capitalize(user.membershipLevel) })}
            </p>
          )}

          <div className="flex flex-col gap-4 border-t border-slate-200 pt-6 sm:flex-row sm:items-start sm:justify-between dark:border-slate-800">
            <ul className="list-disc space-y-1 pl-5 text-sm text-slate-500 dark:text-slate-400">
              <li>{t('plans.credited')}</li>
              <li>
                {t('plans.support')}
                {config.data?.contactEmail && (
                  <>
                    {t('plans.supportAt')}
                    <a
                      href={`mailto:${config.data.contactEmail}`}
                      className="font-medium text-emerald-700 underline-offset-2 hover:underline dark:text-emerald-400"
                    >
                      {config.data.contactEmail}
                    </a>
                  </>
                )}
                .
              </li>
            </ul>
            <Button type="submit" size="lg" disabled={!selected} isLoading={busy} className="w-full sm:w-auto">
              {t('plans.deposit')}
            </Button>
          </div>
        </form>
      </Card>
    </div>
  );
}

import { useId } from 'react';
import { PACK_FEATURES, type Plan } from '@terrafund/contracts';
import { capitalize } from '@/components/money/transaction-cells';
import { Badge } from '@/components/ui/badge';
import { CheckCircleIcon, CheckIcon } from 'lucide-react';
import { cn } from '@/lib/cn';
import { formatUsd } from '@/lib/format';
import { useT } from '@/lib/i18n';

type PlanCardProps = {
  plan: Plan;
  selected: boolean;
  current: boolean;
  onSelect: () => void;
};

/**
 * One pack as a card that is a radio button (a native one, out of sight): clicking anywhere on it selects
 * it, and the keyboard works as in any radio group (Tab into the group, arrows between packs). Its name is
 * the pack's name; its figures are its description.
 */
/** The catalogue's pack features, by their place in PACK_FEATURES (the server lists them in English). */
const FEATURE_KEYS = ['contract', 'cashout', 'support', 'nonRefundable'] as const satisfies { length: (typeof PACK_FEATURES)['length'] };

export function PlanCard({ plan, selected, current, onSelect }: PlanCardProps) {
  const id = useId();
  const { t } = useT('wallet');
  const featureText = (feature: string) => {
    const key = FEATURE_KEYS[(PACK_FEATURES as readonly string[]).indexOf(feature)];
    return key ? t(`plans.features.${key}`) : feature;
  };
  const nameId = `${id}-name`;
  const detailsId = `${id}-details`;
  return (
    <label
      className={cn(
        'relative flex cursor-pointer flex-col rounded-2xl border bg-white p-5 shadow-sm transition-colors dark:bg-slate-900/60',
        'border-slate-200 hover:border-emerald-400 dark:border-slate-800 dark:hover:border-emerald-500/60',
        'has-checked:border-emerald-500 has-checked:ring-2 has-checked:ring-emerald-500/30 dark:has-checked:border-emerald-400',
        'has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-emerald-500',
      )}
    >
      <input
        type="radio"
        name="plan"
        value={plan.id}
        checked={selected}
        onChange={onSelect}
        aria-labelledby={nameId}
        aria-describedby={detailsId}
        // Invisible but covering the whole card: the tap target is the card (issue 17: 44 × 44 px or more).
        className="absolute inset-0 m-0 h-full w-full cursor-pointer appearance-none rounded-2xl opacity-0"
      />
      <div className="flex items-start justify-between gap-3">
        <div className="flex flex-wrap items-center gap-2">
          <span id={nameId} className="text-lg font-semibold text-slate-900 dark:text-white">
            {capitalize(plan.name)}
          </span>
          {plan.popular && <Badge tone="success">{t('plans.popular')}</Badge>}
          {current && <Badge tone="info">{t('plans.current')}</Badge>}
        </div>
        <CheckCircleIcon
          className={cn('h-6 w-6 shrink-0 text-emerald-600 transition-opacity dark:text-emerald-400', selected ? 'opacity-100' : 'opacity-0')}
        />
      </div>
      <div id={detailsId} className="mt-1 flex flex-1 flex-col">
        <p className="text-sm text-slate-500 dark:text-slate-400">{t(`plans.descriptions.${plan.id}`, { defaultValue: plan.description })}</p>
        <p className="mt-4 text-3xl font-semibold tracking-tight text-slate-900 tabular-nums dark:text-white">{formatUsd(plan.price)}</p>
        {/* Three equal columns while each figure fits (an amount never breaks: "780,00 US$"); a longer one, in Spanish
            or French, moves the last figures to a row of their own instead of running into its neighbour. */}
        <dl className="mt-4 flex flex-wrap gap-2 rounded-xl bg-slate-50 p-3 text-center dark:bg-slate-800/60">
          <div className="min-w-min flex-1">
            <dt className="text-xs text-slate-500 dark:text-slate-400">{t('plans.dailyDividends')}</dt>
            <dd className="mt-0.5 font-semibold text-slate-900 tabular-nums dark:text-white">{formatUsd(plan.dailyDividend)}</dd>
          </div>
          <div className="min-w-min flex-1">
            <dt className="text-xs text-slate-500 dark:text-slate-400">{t('plans.annualDividends')}</dt>
            <dd className="mt-0.5 font-semibold text-slate-900 tabular-nums dark:text-white">{formatUsd(plan.annualDividends)}</dd>
          </div>
          <div className="min-w-min flex-1">
            <dt className="text-xs text-slate-500 dark:text-slate-400">{t('plans.annualIncome')}</dt>
            <dd className="mt-0.5 font-semibold text-emerald-700 tabular-nums dark:text-emerald-400">{plan.annualIncomePercent}%</dd>
          </div>
        </dl>
        <ul className="mt-4 space-y-2 text-sm text-slate-600 dark:text-slate-300">
          {plan.features.map((feature) => (
            <li key={feature} className="flex items-start gap-2">
              <CheckIcon className="mt-0.5 h-4 w-4 shrink-0 text-emerald-600 dark:text-emerald-400" />
              {featureText(feature)}
            </li>
          ))}
        </ul>
      </div>
    </label>
  );
}

import { LANDING_PLANS } from '@terrafund/contracts';
import { Link } from 'react-router';

import { buttonClasses } from '@/components/ui/button';
import { paths } from '@/config/paths';

import { useT } from '@/lib/i18n';
import { formatLandingUsd } from '../utils/format';
import { CheckIcon } from 'lucide-react';
import { SectionHeading } from './section-heading';

type LandingPlan = (typeof LANDING_PLANS)[number];

/** `label` and `cardLabel` are keys of the landing namespace. */
const INCOME_ROWS = [
  { key: 'monthly', label: 'plans.monthly', cardLabel: 'plans.monthlyIncome' },
  { key: 'yearly', label: 'plans.yearly', cardLabel: 'plans.yearlyIncome' },
  { key: 'threeYears', label: 'plans.threeYears', cardLabel: 'plans.threeYearIncome' },
] as const;

/** Narrow padding on phones so all five columns fit at 390 px; the outer cells keep some breathing room. */
const englishPadding = 'px-1.5 first:pl-3 last:pr-3 sm:px-6 sm:first:pl-6 sm:last:pr-6';
/** Amounts written "1.125 US$" or "1 125 $US" are wider than "$1,125": narrower, in smaller type, on a phone, to fit all the same. */
const widerPadding = 'px-1 first:pl-2 last:pr-2 sm:px-6 sm:first:pl-6 sm:last:pr-6';

export function Plans({ id }: { id: string }) {
  const { t } = useT('landing');
  return (
    <section
      id={id}
      aria-labelledby={`${id}-title`}
      className="scroll-mt-20 border-y border-slate-200 bg-white py-16 sm:py-24 dark:border-white/10 dark:bg-slate-900/40"
    >
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading id={`${id}-title`} eyebrow={t('plans.eyebrow')} title={t('plans.title')}>
          <p>{t('plans.intro')}</p>
        </SectionHeading>
        <p className="mx-auto mt-4 w-fit rounded-full bg-amber-100 px-4 py-1.5 text-center text-sm font-medium text-amber-900 dark:bg-amber-400/10 dark:text-amber-200">
          {t('plans.nonRefundable')}
        </p>

        <IncomeTable />

        <ul className="mt-16 grid gap-6 sm:grid-cols-2 lg:grid-cols-4 lg:items-stretch">
          {LANDING_PLANS.map((plan) => (
            <li key={plan.name} className="flex">
              <PlanCard plan={plan} />
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

function IncomeTable() {
  const { t, language } = useT('landing');
  const cellPadding = language === 'en' ? englishPadding : widerPadding;
  return (
    <div className="mx-auto mt-12 max-w-4xl">
      {/* Focusable so keyboard users can scroll it sideways on narrow screens. */}
      <div
        role="region"
        aria-labelledby="income-table-caption"
        tabIndex={0}
        className="overflow-x-auto rounded-2xl border border-slate-200 shadow-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-500 dark:border-white/10"
      >
        <table className={`w-full text-right sm:text-base ${language === 'en' ? 'text-[13px]' : 'text-[11px]'}`}>
          <caption id="income-table-caption" className="sr-only">
            {t('plans.caption')}
          </caption>
          <thead className="bg-slate-50 text-[11px] whitespace-nowrap text-slate-500 uppercase sm:text-xs sm:tracking-wide dark:bg-white/5 dark:text-slate-400">
            <tr>
              <th scope="col" className={`${cellPadding} py-3 text-left font-semibold`}>
                {t('plans.plan')}
              </th>
              <th scope="col" className={`${cellPadding} py-3 font-semibold`}>
                {t('plans.price')}
              </th>
              {INCOME_ROWS.map((row) => (
                <th key={row.key} scope="col" className={`${cellPadding} py-3 font-semibold`}>
                  {t(row.label)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200 bg-white tabular-nums dark:divide-white/10 dark:bg-slate-950/40">
            {LANDING_PLANS.map((plan) => (
              <tr key={plan.name} className={plan.popular ? 'bg-emerald-50/70 dark:bg-emerald-500/5' : undefined}>
                <th scope="row" className={`${cellPadding} py-3.5 text-left font-semibold text-slate-900 dark:text-white`}>
                  {plan.name}
                </th>
                <td className={`${cellPadding} py-3.5 text-slate-700 dark:text-slate-300`}>{formatLandingUsd(plan.price)}</td>
                {INCOME_ROWS.map((row) => (
                  <td
                    key={row.key}
                    className={`${cellPadding} py-3.5 font-medium text-emerald-700 dark:text-emerald-400`}
                  >
                    {formatLandingUsd(plan[row.key])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function PlanCard({ plan }: { plan: LandingPlan }) {
  const { t } = useT('landing');
  const titleId = `plan-${plan.name.toLowerCase()}`;
  const emphasis = plan.popular
    ? 'relative border-emerald-500 bg-linear-to-b from-emerald-50 to-white shadow-xl shadow-emerald-600/15 ring-1 ring-emerald-500 lg:-my-3 lg:py-11 dark:border-emerald-400 dark:from-emerald-500/15 dark:to-slate-900 dark:shadow-emerald-500/10 dark:ring-emerald-400'
    : 'border-slate-200 bg-white shadow-sm dark:border-white/10 dark:bg-slate-900/70';

  return (
    <article aria-labelledby={titleId} className={`flex w-full flex-col rounded-2xl border p-6 sm:p-8 ${emphasis}`}>
      <h3 id={titleId} className="text-sm font-bold tracking-[0.2em] text-emerald-700 dark:text-emerald-400">
        {plan.name}
      </h3>
      {plan.popular && (
        <p className="absolute -top-3.5 left-1/2 -translate-x-1/2 rounded-full bg-emerald-600 px-3 py-1 text-xs font-semibold tracking-wide whitespace-nowrap text-white uppercase shadow dark:bg-emerald-500 dark:text-slate-950">
          {t('plans.popular')}
        </p>
      )}
      <p className="mt-2 text-sm text-slate-600 lg:min-h-10 dark:text-slate-400">{t(`plans.notes.${plan.name}`, { defaultValue: plan.note })}</p>
      <p className="mt-6">
        <span className="block text-4xl font-bold tracking-tight text-slate-900 tabular-nums dark:text-white">
          {formatLandingUsd(plan.price)}
        </span>
        <span className="mt-1 block text-sm text-slate-500 dark:text-slate-400">{t('plans.membershipPrice')}</span>
      </p>

      <dl className="mt-6 mb-8 space-y-3 border-t border-slate-200 pt-6 text-sm dark:border-white/10">
        {INCOME_ROWS.map((row) => (
          <div key={row.key} className="flex items-center justify-between gap-4">
            <dt className="flex items-center gap-2 text-slate-600 dark:text-slate-400">
              <CheckIcon className="h-4 w-4 text-emerald-600 dark:text-emerald-400" />
              {t(row.cardLabel)}
            </dt>
            <dd className="font-semibold text-slate-900 tabular-nums dark:text-white">{formatLandingUsd(plan[row.key])}</dd>
          </div>
        ))}
      </dl>

      <Link
        to={paths.register.getHref()}
        aria-describedby={titleId}
        className={buttonClasses({ variant: plan.popular ? 'primary' : 'outline', className: 'mt-auto w-full' })}
      >
        {t('plans.getStarted')}
      </Link>
    </article>
  );
}

import { LANDING_PLANS } from '@terrafund/contracts';
import type { ComponentType } from 'react';

import { CpuIcon, GlobeIcon, UsersIcon } from 'lucide-react';

import { useT } from '@/lib/i18n';
import { formatLandingUsd } from '../utils/format';

const entryPrice = Math.min(...LANDING_PLANS.map((plan) => plan.price));

/** Each item's texts are `approach.<key>.title` and `.description` in the landing namespace. */
type Item = { key: string; Icon: ComponentType<{ className?: string }> };

const ITEMS: readonly Item[] = [
  { key: 'global', Icon: GlobeIcon },
  { key: 'democratized', Icon: UsersIcon },
  { key: 'technology', Icon: CpuIcon },
];

export function Approach() {
  const { t } = useT('landing');
  return (
    <section
      aria-labelledby="approach-title"
      className="relative isolate overflow-hidden bg-slate-900 py-20 text-white sm:py-24 dark:bg-slate-900/60"
    >
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-[radial-gradient(50rem_25rem_at_50%_0%,rgb(16_185_129/0.25),transparent_70%)]"
      />
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold tracking-wide text-emerald-400 uppercase">{t('approach.eyebrow')}</p>
          <h2 id="approach-title" className="mt-3 text-3xl font-bold tracking-tight text-balance sm:text-4xl">
            {t('approach.title')}
          </h2>
          <p className="mt-4 text-lg leading-relaxed text-slate-300">
            {t('approach.intro')}
          </p>
        </div>

        <ul className="mt-14 grid gap-6 md:grid-cols-3">
          {ITEMS.map(({ key, Icon }) => (
            <li key={key} className="rounded-2xl border border-white/10 bg-white/5 p-6 backdrop-blur-sm">
              <span className="flex h-12 w-12 items-center justify-center rounded-xl bg-emerald-500/15 text-emerald-300 ring-1 ring-emerald-400/30">
                <Icon className="h-6 w-6" />
              </span>
              <h3 className="mt-5 text-lg font-semibold">{t(`approach.${key}.title`)}</h3>
              <p className="mt-2 leading-relaxed text-slate-300">
                {t(`approach.${key}.description`, { price: formatLandingUsd(entryPrice) })}
              </p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

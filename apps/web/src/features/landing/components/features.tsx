import type { ComponentType } from 'react';

import { BuildingIcon, CoinsIcon, ShieldCheckIcon, TrendingUpIcon } from 'lucide-react';

import { useT } from '@/lib/i18n';
import { SectionHeading } from './section-heading';

/** Each feature's texts are `features.<key>.title` and `.description` in the landing namespace. */
type Feature = { key: string; Icon: ComponentType<{ className?: string }> };

const FEATURES: readonly Feature[] = [
  { key: 'properties', Icon: BuildingIcon },
  { key: 'security', Icon: ShieldCheckIcon },
  { key: 'payments', Icon: CoinsIcon },
  { key: 'returns', Icon: TrendingUpIcon },
];

export function Features({ id }: { id: string }) {
  const { t } = useT('landing');
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-20 py-16 sm:py-24">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading id={`${id}-title`} eyebrow={t('features.eyebrow')} title={t('features.title')}>
          <p>{t('features.intro')}</p>
        </SectionHeading>

        <ul className="mt-12 grid gap-4 sm:mt-14 sm:grid-cols-2 sm:gap-6 lg:grid-cols-4">
          {FEATURES.map(({ key, Icon }) => (
            <li
              key={key}
              className="group flex gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm transition sm:block sm:p-6 hover:-translate-y-0.5 hover:border-emerald-300 hover:shadow-md dark:border-white/10 dark:bg-slate-900/60 dark:hover:border-emerald-500/40"
            >
              <span className="flex h-12 w-12 shrink-0 items-center justify-center rounded-xl bg-emerald-100 text-emerald-700 dark:bg-emerald-500/15 dark:text-emerald-300">
                <Icon className="h-6 w-6" />
              </span>
              <div>
                <h3 className="text-lg font-semibold text-slate-900 sm:mt-5 dark:text-white">{t(`features.${key}.title`)}</h3>
                <p className="mt-2 leading-relaxed text-slate-600 dark:text-slate-400">{t(`features.${key}.description`)}</p>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

import type { ComponentType } from 'react';

import { BuildingIcon, CoinsIcon, ShieldCheckIcon, TrendingUpIcon } from 'lucide-react';

import { SectionHeading } from './section-heading';

type Feature = { title: string; description: string; Icon: ComponentType<{ className?: string }> };

const FEATURES: readonly Feature[] = [
  {
    title: 'Premium Properties',
    description:
      'Residential and commercial projects in established and emerging markets, each one reviewed before it reaches the platform.',
    Icon: BuildingIcon,
  },
  {
    title: 'Blockchain Security',
    description:
      'Payments are recorded on the blockchain, giving every transaction a transparent, tamper-evident trail you can verify.',
    Icon: ShieldCheckIcon,
  },
  {
    title: 'Crypto Currency Payments',
    description:
      'Pay for your membership in cryptocurrency within minutes, without bank transfers or cross-border delays.',
    Icon: CoinsIcon,
  },
  {
    title: 'Maximum Returns',
    description:
      'Plans built around 9-13% annual returns, with income credited to your wallet and visible at any time.',
    Icon: TrendingUpIcon,
  },
];

export function Features({ id }: { id: string }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-20 py-16 sm:py-24">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading id={`${id}-title`} eyebrow="Features" title="Everything you need to invest in property">
          <p>Real assets, modern rails: Terrafund pairs carefully chosen real estate with fast, secure crypto payments.</p>
        </SectionHeading>

        <ul className="mt-12 grid gap-4 sm:mt-14 sm:grid-cols-2 sm:gap-6 lg:grid-cols-4">
          {FEATURES.map(({ title, description, Icon }) => (
            <li
              key={title}
              className="group flex gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm transition sm:block sm:p-6 hover:-translate-y-0.5 hover:border-emerald-300 hover:shadow-md dark:border-white/10 dark:bg-slate-900/60 dark:hover:border-emerald-500/40"
            >
              <span className="flex h-12 w-12 shrink-0 items-center justify-center rounded-xl bg-emerald-100 text-emerald-700 dark:bg-emerald-500/15 dark:text-emerald-300">
                <Icon className="h-6 w-6" />
              </span>
              <div>
                <h3 className="text-lg font-semibold text-slate-900 sm:mt-5 dark:text-white">{title}</h3>
                <p className="mt-2 leading-relaxed text-slate-600 dark:text-slate-400">{description}</p>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

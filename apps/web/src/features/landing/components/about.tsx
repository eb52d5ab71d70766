import { CheckIcon } from 'lucide-react';
import { SectionHeading } from './section-heading';

const INCLUDED = [
  'Income from your plan credited to your wallet in USD',
  'Withdrawals of your earnings in cryptocurrency',
  'Access to the catalogue of investment projects',
  'Identity verification (KYC) that protects every member',
  'Priority support from our investment team',
] as const;

export function About({ id }: { id: string }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-20 py-16 sm:py-24">
      <div className="mx-auto grid max-w-7xl gap-12 px-4 sm:px-6 lg:grid-cols-2 lg:items-center lg:px-8">
        <div>
          <SectionHeading id={`${id}-title`} eyebrow="About" title="About Terrafund" align="left" />
          <div className="mt-6 space-y-4 text-lg leading-relaxed text-slate-600 dark:text-slate-300">
            <p>
              Terrafund was founded on a simple idea: owning part of a well-chosen building should not depend on where you
              live or how much capital you start with. We bring real-estate projects and investors together through a
              membership model that is clear about what it costs and what it pays.
            </p>
            <p>
              Our team combines experience in property development, finance and blockchain technology. We use
              cryptocurrency so members anywhere can join in minutes, and blockchain records so every payment leaves a
              trail that can be checked.
            </p>
          </div>
        </div>

        <div className="rounded-3xl border border-slate-200 bg-white p-8 shadow-sm dark:border-white/10 dark:bg-slate-900/60">
          <h3 className="text-xl font-semibold text-slate-900 dark:text-white">What your membership includes</h3>
          <ul className="mt-6 space-y-4">
            {INCLUDED.map((item) => (
              <li key={item} className="flex gap-3 text-slate-700 dark:text-slate-300">
                <span className="mt-0.5 flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-emerald-100 text-emerald-700 dark:bg-emerald-500/15 dark:text-emerald-300">
                  <CheckIcon className="h-4 w-4" />
                </span>
                {item}
              </li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}

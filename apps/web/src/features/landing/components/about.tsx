import { CheckIcon } from 'lucide-react';
import { useT } from '@/lib/i18n';
import { SectionHeading } from './section-heading';

const INCLUDED = ['income', 'withdrawals', 'catalogue', 'kyc', 'support'] as const;

export function About({ id }: { id: string }) {
  const { t } = useT('landing');
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-20 py-16 sm:py-24">
      <div className="mx-auto grid max-w-7xl gap-12 px-4 sm:px-6 lg:grid-cols-2 lg:items-center lg:px-8">
        <div>
          <SectionHeading id={`${id}-title`} eyebrow={t('about.eyebrow')} title={t('about.title')} align="left" />
          <div className="mt-6 space-y-4 text-lg leading-relaxed text-slate-600 dark:text-slate-300">
            <p>{t('about.first')}</p>
            <p>{t('about.second')}</p>
          </div>
        </div>

        <div className="rounded-3xl border border-slate-200 bg-white p-8 shadow-sm dark:border-white/10 dark:bg-slate-900/60">
          <h3 className="text-xl font-semibold text-slate-900 dark:text-white">{t('about.includedTitle')}</h3>
          <ul className="mt-6 space-y-4">
            {INCLUDED.map((item) => (
              <li key={item} className="flex gap-3 text-slate-700 dark:text-slate-300">
                <span className="mt-0.5 flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-emerald-100 text-emerald-700 dark:bg-emerald-500/15 dark:text-emerald-300">
                  <CheckIcon className="h-4 w-4" />
                </span>
                {t(`about.included.${item}`)}
              </li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}

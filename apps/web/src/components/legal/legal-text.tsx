import type { ReactNode } from 'react';
import { useT } from '@/lib/i18n';

/** One titled part of a legal text; h3 because the dialog's title is the h2. */
export function LegalSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="mt-6 first:mt-0">
      <h3 className="text-base font-semibold text-slate-900 dark:text-white">{title}</h3>
      <div className="mt-2 space-y-3 text-sm leading-relaxed">{children}</div>
    </section>
  );
}

/** A translated legal text says first that the English version prevails (issue 35); the English one says nothing. */
export function EnglishPrevails() {
  const { t, language } = useT('legal');
  if (language === 'en') return null;
  return <p className="mb-4 text-sm font-medium italic">{t('prevails')}</p>;
}

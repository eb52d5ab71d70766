import { Card } from './card';
import { ClockIcon } from 'lucide-react';
import { PageHeader } from './page-header';
import { useT } from '@/lib/i18n';

/** The honest stand-in for a screen that arrives with a later release. */
export function ComingSoon({ title, description }: { title: string; description?: string }) {
  const { t } = useT();
  return (
    <div className="space-y-6">
      <title>{`${title} · Terrafund`}</title>
      <PageHeader title={title} description={description} />
      <Card className="flex flex-col items-center px-6 py-16 text-center">
        <span className="flex h-12 w-12 items-center justify-center rounded-full bg-emerald-50 text-emerald-600 dark:bg-emerald-500/10 dark:text-emerald-400">
          <ClockIcon className="h-6 w-6" />
        </span>
        <p className="mt-4 text-lg font-semibold text-slate-900 dark:text-white">{t('comingSoon.title')}</p>
        <p className="mt-1 max-w-sm text-sm text-slate-500 dark:text-slate-400">
          {t('comingSoon.text')}
        </p>
      </Card>
    </div>
  );
}

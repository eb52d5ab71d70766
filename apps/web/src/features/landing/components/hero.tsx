import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { buttonClasses } from '@/components/ui/button';
import { ArrowRightIcon, CheckIcon, ShieldCheckIcon } from 'lucide-react';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';
import { useT } from '@/lib/i18n';

/** Marketing claims of docs/product.md §1.3 Marketing and legal texts, printed as given. */
const STATS = [
  { value: '$50M+', label: 'hero.stats.assets' },
  { value: '1000+', label: 'hero.stats.investors' },
  { value: '15+', label: 'hero.stats.countries' },
  { value: '9-13%', label: 'hero.stats.returns' },
] as const;

export function Hero() {
  const { t } = useT('landing');
  return (
    <section aria-labelledby="hero-title" className="relative isolate overflow-hidden">
      <HeroBackdrop />
      <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 pt-14 pb-16 sm:px-6 sm:pt-20 lg:grid-cols-[1.1fr_0.9fr] lg:px-8 lg:pt-24 lg:pb-24">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full border border-emerald-600/20 bg-emerald-50 px-3 py-1 text-xs font-semibold tracking-wide text-emerald-800 uppercase dark:border-emerald-400/20 dark:bg-emerald-400/10 dark:text-emerald-300">
            <span aria-hidden="true" className="h-1.5 w-1.5 rounded-full bg-emerald-500" />
            {t('hero.eyebrow')}
          </p>
          <h1
            id="hero-title"
            className="mt-6 text-4xl font-bold tracking-tight text-balance text-slate-900 sm:text-5xl xl:text-6xl dark:text-white"
          >
            {t('hero.titleStart')}{' '}
            <span className="bg-linear-to-r from-emerald-600 to-teal-500 bg-clip-text text-transparent dark:from-emerald-400 dark:to-teal-300">
              {t('hero.titleHighlight')}
            </span>
          </h1>
          <p className="mt-6 max-w-xl text-lg leading-relaxed text-slate-600 dark:text-slate-300">
            {t('hero.intro')}
          </p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row sm:items-center">
            <Link
              to={paths.register.getHref()}
              className={buttonClasses({ size: 'lg' })}
            >
              {t('hero.start')}
              <ArrowRightIcon className="h-5 w-5" />
            </Link>
            <Link to={paths.wallet.getHref()} className={buttonClasses({ variant: 'outline', size: 'lg' })}>
              {t('hero.explore')}
            </Link>
          </div>

          <dl className="mt-12 grid grid-cols-2 gap-x-6 gap-y-8 border-t border-slate-200 pt-8 sm:grid-cols-4 dark:border-white/10">
            {STATS.map((stat) => (
              <div key={stat.label} className="flex flex-col-reverse justify-end gap-1">
                <dt className="text-sm text-slate-500 dark:text-slate-400">{t(stat.label)}</dt>
                <dd className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl dark:text-white">
                  {stat.value}
                </dd>
              </div>
            ))}
          </dl>
        </div>

        <HeroIllustration />
      </div>
    </section>
  );
}

function HeroBackdrop() {
  return (
    <div aria-hidden="true" className="absolute inset-0 -z-10">
      <div className="absolute inset-0 bg-[radial-gradient(60rem_30rem_at_10%_-10%,rgb(16_185_129/0.14),transparent_70%),radial-gradient(40rem_30rem_at_100%_10%,rgb(20_184_166/0.12),transparent_70%)] dark:bg-[radial-gradient(60rem_30rem_at_10%_-10%,rgb(16_185_129/0.20),transparent_70%),radial-gradient(40rem_30rem_at_100%_10%,rgb(20_184_166/0.14),transparent_70%)]" />
      <div className="absolute inset-0 bg-[linear-gradient(to_right,rgb(100_116_139/0.10)_1px,transparent_1px),linear-gradient(to_bottom,rgb(100_116_139/0.10)_1px,transparent_1px)] mask-[radial-gradient(ellipse_at_top,black_30%,transparent_75%)] bg-size-[48px_48px]" />
    </div>
  );
}

/** A drawn skyline with two status chips: decoration only, so it is hidden from assistive tech. */
function HeroIllustration() {
  const { t } = useT('landing');
  return (
    <div aria-hidden="true" className="relative hidden lg:block">
      <div className="relative overflow-hidden rounded-3xl border border-slate-200 bg-linear-to-br from-emerald-50 via-white to-teal-50 p-8 shadow-2xl shadow-emerald-900/10 dark:border-white/10 dark:from-emerald-950/60 dark:via-slate-900 dark:to-slate-900 dark:shadow-black/40">
        <svg viewBox="0 0 400 300" className="h-auto w-full">
          <defs>
            <linearGradient id="hero-tower" x1="0" y1="0" x2="0" y2="1">
              <stop offset="0" stopColor="currentColor" className="text-emerald-500" />
              <stop offset="1" stopColor="currentColor" className="text-teal-700" />
            </linearGradient>
            <linearGradient id="hero-tower-soft" x1="0" y1="0" x2="0" y2="1">
              <stop offset="0" stopColor="currentColor" className="text-emerald-300 dark:text-emerald-800" />
              <stop offset="1" stopColor="currentColor" className="text-emerald-100 dark:text-slate-800" />
            </linearGradient>
          </defs>
          <circle cx="310" cy="70" r="34" className="fill-amber-300/70 dark:fill-emerald-300/20" />
          <g fill="url(#hero-tower-soft)">
            <rect x="20" y="150" width="50" height="130" rx="3" />
            <rect x="300" y="120" width="60" height="160" rx="3" />
            <rect x="240" y="170" width="48" height="110" rx="3" />
          </g>
          <g fill="url(#hero-tower)">
            <rect x="80" y="90" width="64" height="190" rx="4" />
            <path d="M160 280V60l40-25 40 25v220z" />
            <rect x="250" y="140" width="40" height="140" rx="4" opacity="0.85" />
          </g>
          <g className="fill-white/70 dark:fill-emerald-100/40">
            {[110, 135, 160, 185, 210, 235].map((y) => (
              <g key={y}>
                <rect x="92" y={y} width="12" height="10" rx="1.5" />
                <rect x="120" y={y} width="12" height="10" rx="1.5" />
                <rect x="176" y={y - 30} width="14" height="12" rx="1.5" />
                <rect x="210" y={y - 30} width="14" height="12" rx="1.5" />
              </g>
            ))}
          </g>
          <rect x="0" y="278" width="400" height="4" rx="2" className="fill-emerald-700/40 dark:fill-emerald-400/30" />
        </svg>

        <StatusChip
          position="top-6 left-6"
          iconClassName="bg-emerald-100 text-emerald-700 dark:bg-emerald-500/15 dark:text-emerald-300"
          icon={<ShieldCheckIcon className="h-5 w-5" />}
          title={t('hero.secured')}
          detail={t('hero.records')}
        />
        <StatusChip
          position="right-6 bottom-6"
          iconClassName="bg-emerald-600 text-white dark:bg-emerald-500 dark:text-slate-950"
          icon={<CheckIcon className="h-5 w-5" />}
          title={t('hero.payment')}
          detail={t('hero.activated')}
        />
      </div>
    </div>
  );
}

type StatusChipProps = { position: string; iconClassName: string; icon: ReactNode; title: string; detail: string };

/** One of the illustration's floating chips: an icon, a bold line and a quiet one, placed in a corner by `position`. */
function StatusChip({ position, iconClassName, icon, title, detail }: StatusChipProps) {
  return (
    <div
      className={cn(
        'absolute',
        position,
        'flex items-center gap-3 rounded-xl border border-slate-200 bg-white/90 px-4 py-3 shadow-lg backdrop-blur dark:border-white/10 dark:bg-slate-900/90',
      )}
    >
      <span className={cn('flex h-9 w-9 items-center justify-center rounded-lg', iconClassName)}>{icon}</span>
      <span className="text-sm">
        <span className="block font-semibold text-slate-900 dark:text-white">{title}</span>
        <span className="block text-slate-500 dark:text-slate-400">{detail}</span>
      </span>
    </div>
  );
}

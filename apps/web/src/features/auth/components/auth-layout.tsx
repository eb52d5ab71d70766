import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { Logo } from '@/components/ui/logo';
import { ThemeToggle } from '@/components/ui/theme-toggle';
import { LanguageMenu } from '@/components/language-menu';
import { copyright, useYear } from '@/lib/use-year';
import { GlobeIcon, ShieldCheckIcon, TrendingUpIcon, UsersIcon } from 'lucide-react';
import { useT } from '@/lib/i18n';

/** `label` is the key of its text in the auth namespace. */
const highlights = [
  { icon: TrendingUpIcon, value: '9-13%', label: 'layout.returns' },
  { icon: ShieldCheckIcon, value: '$50M+', label: 'layout.assets' },
  { icon: UsersIcon, value: '1000+', label: 'layout.investors' },
  { icon: GlobeIcon, value: '15+', label: 'layout.countries' },
] as const;

/** The frame of the sign-in screens: a brand panel on wide screens, the form on the right, no sidebar. */
export function AuthLayout({ children }: { children: ReactNode }) {
  const year = useYear();
  const { t } = useT('auth');
  return (
    <div className="grid min-h-dvh lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)]">
      {/* Always dark, whatever the theme: the `dark` class makes the Logo use its light variant. */}
      <aside className="dark relative hidden overflow-hidden bg-slate-950 p-10 text-white lg:flex lg:flex-col">
        <div
          aria-hidden="true"
          className="absolute inset-0 bg-[radial-gradient(ellipse_at_top_left,rgba(16,185,129,0.35),transparent_60%),radial-gradient(ellipse_at_bottom_right,rgba(20,184,166,0.2),transparent_55%)]"
        />
        <div className="relative flex h-full flex-col">
          <Link to={paths.home.getHref()} className="w-fit rounded-md focus-visible:outline-2 focus-visible:outline-emerald-400">
            <Logo />
          </Link>
          <div className="my-auto max-w-md py-12">
            <p className="text-sm font-semibold tracking-wider text-emerald-400 uppercase">{t('layout.eyebrow')}</p>
            <p className="mt-3 text-4xl leading-tight font-semibold tracking-tight">
              {t('layout.title')}
            </p>
            <p className="mt-4 text-slate-300">
              {t('layout.text')}
            </p>
            <dl className="mt-10 grid grid-cols-2 gap-4">
              {highlights.map(({ icon: Icon, value, label }) => (
                <div key={label} className="rounded-xl border border-white/10 bg-white/5 p-4 backdrop-blur">
                  <Icon className="h-5 w-5 text-emerald-400" />
                  <dt className="sr-only">{t(label)}</dt>
                  <dd className="mt-3">
                    <span className="block text-2xl font-semibold">{value}</span>
                    <span className="text-sm text-slate-400">{t(label)}</span>
                  </dd>
                </div>
              ))}
            </dl>
          </div>
          <p className="text-xs text-slate-500">{copyright(year, t('layout.nonRefundable'))}</p>
        </div>
      </aside>

      <div className="flex min-h-dvh flex-col">
        <header className="flex items-center justify-between px-4 py-4 sm:px-8">
          <Link
            to={paths.home.getHref()}
            className="rounded-md focus-visible:outline-2 focus-visible:outline-emerald-500 lg:invisible"
            aria-label={t('common:home')}
          >
            <Logo />
          </Link>
          <div className="flex items-center gap-1 sm:gap-2">
            <LanguageMenu />
            <ThemeToggle />
          </div>
        </header>
        <main className="flex flex-1 items-start justify-center px-4 pt-4 pb-12 sm:items-center sm:px-8">
          <div className="w-full max-w-md">{children}</div>
        </main>
      </div>
    </div>
  );
}

import type { ComponentType, SVGProps } from 'react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { BuildingIcon, UserIcon, WalletIcon } from 'lucide-react';
import { useT } from '@/lib/i18n';

const links: Array<{ id: 'plans' | 'projects' | 'profile'; href: string; icon: ComponentType<SVGProps<SVGSVGElement>> }> = [
  {
    id: 'plans',
    href: paths.wallet.getHref(),
    icon: WalletIcon,
  },
  {
    id: 'projects',
    href: paths.projects.getHref(),
    icon: BuildingIcon,
  },
  {
    id: 'profile',
    href: paths.profile.getHref(),
    icon: UserIcon,
  },
];

/** Where to go next from the dashboard. */
export function QuickLinks() {
  const { t } = useT('dashboard');
  return (
    <section aria-labelledby="quick-links-title">
      <h2 id="quick-links-title" className="text-lg font-semibold text-slate-900 dark:text-white">
        {t('quickLinks.title')}
      </h2>
      <ul className="mt-4 grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {links.map(({ id, href, icon: Icon }) => (
          <li key={href}>
            <Link
              to={href}
              className="group flex h-full items-start gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm transition hover:border-emerald-300 hover:shadow-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-500 dark:border-slate-800 dark:bg-slate-900/60 dark:shadow-none dark:hover:border-emerald-500/40"
            >
              <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-xl bg-emerald-50 text-emerald-600 dark:bg-emerald-500/10 dark:text-emerald-400">
                <Icon className="h-5 w-5" />
              </span>
              <span>
                <span className="block font-semibold text-slate-900 group-hover:text-emerald-700 dark:text-white dark:group-hover:text-emerald-300">
                  {t(`quickLinks.${id}.title`)}
                </span>
                <span className="mt-1 block text-sm text-slate-500 dark:text-slate-400">{t(`quickLinks.${id}.text`)}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

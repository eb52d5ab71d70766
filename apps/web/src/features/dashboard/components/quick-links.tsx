import type { ComponentType, SVGProps } from 'react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { BuildingIcon, UserIcon, WalletIcon } from 'lucide-react';

const links: Array<{ title: string; text: string; href: string; icon: ComponentType<SVGProps<SVGSVGElement>> }> = [
  {
    title: 'Membership plans',
    text: 'Choose or switch the plan that pays your daily dividends.',
    href: paths.wallet.getHref(),
    icon: WalletIcon,
  },
  {
    title: 'Investment projects',
    text: 'Browse residential, commercial and land projects open for funding.',
    href: paths.projects.getHref(),
    icon: BuildingIcon,
  },
  {
    title: 'Your profile',
    text: 'Keep your personal details and password up to date.',
    href: paths.profile.getHref(),
    icon: UserIcon,
  },
];

/** Where to go next from the dashboard. */
export function QuickLinks() {
  return (
    <section aria-labelledby="quick-links-title">
      <h2 id="quick-links-title" className="text-lg font-semibold text-slate-900 dark:text-white">
        Get started
      </h2>
      <ul className="mt-4 grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {links.map(({ title, text, href, icon: Icon }) => (
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
                  {title}
                </span>
                <span className="mt-1 block text-sm text-slate-500 dark:text-slate-400">{text}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

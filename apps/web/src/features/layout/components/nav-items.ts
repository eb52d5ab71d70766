import type { ComponentType, SVGProps } from 'react';
import type { Role } from '@terrafund/contracts';
import { paths } from '@/config/paths';
import { ArrowLeftRightIcon, BuildingIcon, ChartColumnIcon, HistoryIcon, LayoutDashboardIcon, MailIcon, ShieldCheckIcon, UsersIcon, WalletIcon } from 'lucide-react';

/** `label` and `title` are keys of their texts in the layout namespace. */
export type NavItem = { label: string; href: string; icon: ComponentType<SVGProps<SVGSVGElement>> };
export type NavGroup = { title: string; items: NavItem[] };

/** Sidebar contents (docs/product.md §2.3 Layout): an admin sees only the Admin group; every other member the member links. */
export function navigationFor(role: Role): NavGroup[] {
  if (role === 'admin') {
    return [
      {
        title: 'nav.admin',
        items: [
          { label: 'nav.adminDashboard', href: paths.adminDashboard.getHref(), icon: ChartColumnIcon },
          { label: 'nav.users', href: paths.adminUsers.getHref(), icon: UsersIcon },
          { label: 'nav.transactions', href: paths.adminTransactions.getHref(), icon: ArrowLeftRightIcon },
          { label: 'nav.projects', href: paths.adminProjects.getHref(), icon: BuildingIcon },
          { label: 'nav.audit', href: paths.adminAudit.getHref(), icon: HistoryIcon },
          { label: 'nav.mail', href: paths.adminMail.getHref(), icon: MailIcon },
        ],
      },
    ];
  }
  return [
    {
      title: 'nav.menu',
      items: [
        { label: 'nav.dashboard', href: paths.dashboard.getHref(), icon: LayoutDashboardIcon },
        { label: 'nav.plan', href: paths.wallet.getHref(), icon: WalletIcon },
        { label: 'nav.kyc', href: paths.kyc.getHref(), icon: ShieldCheckIcon },
      ],
    },
  ];
}

/** A link is current when the path is the link itself or lies below it. */
export function isActivePath(pathname: string, href: string): boolean {
  return pathname === href || pathname.startsWith(`${href}/`);
}

import type { ComponentType, SVGProps } from 'react';
import type { Role } from '@terrafund/contracts';
import { paths } from '@/config/paths';
import { ArrowLeftRightIcon, BuildingIcon, ChartColumnIcon, HistoryIcon, LayoutDashboardIcon, ShieldCheckIcon, UsersIcon, WalletIcon } from 'lucide-react';

export type NavItem = { label: string; href: string; icon: ComponentType<SVGProps<SVGSVGElement>> };
export type NavGroup = { title: string; items: NavItem[] };

/** Sidebar contents (docs/product.md §2.3 Layout): an admin sees only the Admin group; every other member the member links. */
export function navigationFor(role: Role): NavGroup[] {
  if (role === 'admin') {
    return [
      {
        title: 'Admin',
        items: [
          { label: 'Admin Dashboard', href: paths.adminDashboard.getHref(), icon: ChartColumnIcon },
          { label: 'Manage Users', href: paths.adminUsers.getHref(), icon: UsersIcon },
          { label: 'Transactions', href: paths.adminTransactions.getHref(), icon: ArrowLeftRightIcon },
          { label: 'Projects', href: paths.adminProjects.getHref(), icon: BuildingIcon },
          { label: 'Audit log', href: paths.adminAudit.getHref(), icon: HistoryIcon },
        ],
      },
    ];
  }
  return [
    {
      title: 'Menu',
      items: [
        { label: 'Dashboard', href: paths.dashboard.getHref(), icon: LayoutDashboardIcon },
        { label: 'Plan', href: paths.wallet.getHref(), icon: WalletIcon },
        { label: 'KYC Verification', href: paths.kyc.getHref(), icon: ShieldCheckIcon },
      ],
    },
  ];
}

/** A link is current when the path is the link itself or lies below it. */
export function isActivePath(pathname: string, href: string): boolean {
  return pathname === href || pathname.startsWith(`${href}/`);
}

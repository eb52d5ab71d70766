import type { ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';

/** The top of a wallet figure card: its title (the card's name, by `id`) and figure, with the card's icon beside them. */
export function WalletCardHeading({ id, title, icon: Icon, children }: { id: string; title: string; icon: LucideIcon; children: ReactNode }) {
  return (
    <div className="flex items-start justify-between gap-3">
      <div className="min-w-0">
        <h2 id={id} className="text-sm font-medium text-slate-500 dark:text-slate-400">
          {title}
        </h2>
        {children}
      </div>
      <span className="flex h-9 w-9 shrink-0 items-center justify-center rounded-xl bg-emerald-50 text-emerald-600 dark:bg-emerald-500/10 dark:text-emerald-400">
        <Icon className="h-5 w-5" />
      </span>
    </div>
  );
}

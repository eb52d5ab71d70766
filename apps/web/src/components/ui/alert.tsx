import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { AlertTriangleIcon, CheckCircleIcon, ClockIcon, XCircleIcon } from 'lucide-react';

const tones = {
  success: {
    box: 'border-emerald-200 bg-emerald-50 text-emerald-900 dark:border-emerald-500/30 dark:bg-emerald-500/10 dark:text-emerald-100',
    icon: 'text-emerald-600 dark:text-emerald-400',
    Icon: CheckCircleIcon,
  },
  warning: {
    box: 'border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-500/30 dark:bg-amber-500/10 dark:text-amber-100',
    icon: 'text-amber-600 dark:text-amber-400',
    Icon: AlertTriangleIcon,
  },
  info: {
    box: 'border-sky-200 bg-sky-50 text-sky-900 dark:border-sky-500/30 dark:bg-sky-500/10 dark:text-sky-100',
    icon: 'text-sky-600 dark:text-sky-400',
    Icon: ClockIcon,
  },
  danger: {
    box: 'border-rose-200 bg-rose-50 text-rose-900 dark:border-rose-500/30 dark:bg-rose-500/10 dark:text-rose-100',
    icon: 'text-rose-600 dark:text-rose-400',
    Icon: XCircleIcon,
  },
} as const;

type AlertProps = {
  tone: keyof typeof tones;
  title: ReactNode;
  children?: ReactNode;
  action?: ReactNode;
  className?: string;
};

/** A banner with an icon, a title, an explanation and an optional action. */
export function Alert({ tone, title, children, action, className }: AlertProps) {
  const { box, icon, Icon } = tones[tone];
  return (
    <div className={cn('flex flex-col gap-4 rounded-xl border p-4 sm:flex-row sm:items-center sm:p-5', box, className)}>
      <div className="flex flex-1 items-start gap-3">
        <Icon className={cn('mt-0.5 h-5 w-5 shrink-0', icon)} />
        <div className="min-w-0">
          <p className="font-semibold">{title}</p>
          {children && <div className="mt-1 text-sm opacity-90">{children}</div>}
        </div>
      </div>
      {action && <div className="shrink-0 pl-8 sm:pl-0">{action}</div>}
    </div>
  );
}

import { formatDecimal, type PaymentSchedule, type Project, type ProjectStatus, type ProjectType } from '@terrafund/contracts';
import type { BadgeTone } from '@/components/ui/badge';
import { INTL_LOCALES } from '@terrafund/contracts/i18n';
import { formatUsd } from '@/lib/format';
import { currentLanguage } from '@/lib/i18n';

/** The catalogue keys of a project's type, status and payment schedule (the projects namespace). */
export const projectTypeKey = (type: ProjectType) => `types.${type}` as const;
export const projectStatusKey = (status: ProjectStatus) => `statuses.${status}` as const;
export const paymentScheduleKey = (schedule: PaymentSchedule) => `schedules.${schedule}` as const;

export const PROJECT_STATUS_TONES: Record<ProjectStatus, BadgeTone> = {
  available: 'success',
  reserved: 'warning',
  sold: 'neutral',
};

/** What is still open for investment. */
export const remainingOf = (project: Pick<Project, 'target' | 'funded'>) => Math.max(0, Math.round((project.target - project.funded) * 100) / 100);

/**
 * The smallest amount accepted: the minimum, or, when less than the minimum is left, exactly what is left (so
 * a project can reach its target). The server applies the same rule.
 */
export const smallestInvestment = (project: Pick<Project, 'target' | 'funded' | 'minInvestment'>) => {
  const remaining = remainingOf(project);
  return remaining > 0 ? Math.min(project.minInvestment, remaining) : project.minInvestment;
};

/**
 * The share funded, in whole percent, rounded down: "100%" only once the project is really full, never
 * for 99.6 %. A project without a target counts as not funded rather than dividing by zero.
 */
export function fundedPercent({ target, funded }: Pick<Project, 'target' | 'funded'>): number {
  if (target <= 0) return 0;
  return Math.min(100, Math.floor((funded / target) * 100));
}

/** "8.5%", "12%", "1,250.25%": at most two decimals, none that are zero ("8,5 %" in Spanish and French). */
export function formatPercent(value: number): string {
  const language = currentLanguage();
  if (language === 'en') return `${formatDecimal(value, 2, { trimZeros: true })}%`;
  return new Intl.NumberFormat(INTL_LOCALES[language], { style: 'percent', maximumFractionDigits: 2 }).format(value / 100);
}

/** A count in the language's digits grouping: "1,250", "1.250", "1 250". */
export const formatCount = (value: number) => value.toLocaleString(INTL_LOCALES[currentLanguage()]);

/** A project figure: whole dollars (docs/product.md §11.3 Formats: 0 decimals on projects). */
export const formatFigure = (amount: number) => formatUsd(amount, 0);

/**
 * An amount a member typed or can still invest: whole dollars as on the rest of the page, but with its
 * cents when it has any, so "$1,000" is never shown for $999.50.
 */
export const formatAmount = (amount: number) => formatUsd(amount, Number.isInteger(amount) ? 0 : 2);

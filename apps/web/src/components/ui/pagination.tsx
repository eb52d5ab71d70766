import { Button } from './button';
import { useT } from '@/lib/i18n';

type PaginationProps = {
  page: number;
  pageCount: number;
  onPageChange: (page: number) => void;
  /** What is being paged, for the navigation's accessible name ("Users pages"). */
  label: string;
  disabled?: boolean;
};

/** "Page N of M" between Previous and Next. */
export function Pagination({ page, pageCount, onPageChange, label, disabled = false }: PaginationProps) {
  const { t } = useT();
  return (
    <nav aria-label={label} className="flex items-center justify-between gap-3">
      <Button variant="outline" size="sm" disabled={disabled || page <= 1} onClick={() => onPageChange(page - 1)}>
        {t('pagination.previous')}
      </Button>
      <p className="text-sm font-medium text-slate-600 tabular-nums dark:text-slate-300" aria-live="polite">
        {t('pagination.page', { page, pageCount })}
      </p>
      <Button variant="outline" size="sm" disabled={disabled || page >= pageCount} onClick={() => onPageChange(page + 1)}>
        {t('pagination.next')}
      </Button>
    </nav>
  );
}

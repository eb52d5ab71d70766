import { Badge, type BadgeTone } from '@/components/ui/badge';
import { EmptyState } from '@/components/ui/empty-state';
import { ArrowLeftRightIcon } from 'lucide-react';
import { formatDate, formatUsd } from '@/lib/format';
import { SectionCard } from './section-card';
import { useT } from '@/lib/i18n';

/**
 * The fields of a transaction this list shows (docs/product.md §9.4 Shapes). The detail answer types transactions
 * loosely until the transactions contract exists, so each is read with care.
 */
type TransactionRow = { id: string; type: string; amount: number | null; status: string; date: string | null; description: string };

function toRow(value: unknown, index: number): TransactionRow {
  const t = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  const str = (key: string) => (typeof t[key] === 'string' ? (t[key] as string) : '');
  return {
    id: str('_id') || String(index),
    type: str('type'),
    amount: typeof t.amount === 'number' ? t.amount : null,
    status: str('status'),
    date: str('createdAt') || str('date') || null,
    description: str('description'),
  };
}

const statusTones: Record<string, BadgeTone> = { completed: 'success', pending: 'warning', failed: 'danger' };
const capitalize = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);

export function RecentTransactions({ transactions }: { transactions: unknown[] }) {
  const rows = transactions.map(toRow);
  const { t } = useT('admin');
  return (
    <SectionCard title={t('users.transactions.title')} bodyClassName={rows.length ? 'p-0 sm:p-0' : undefined}>
      {rows.length === 0 ? (
        <EmptyState icon={<ArrowLeftRightIcon className="h-5 w-5" />} title={t('users.transactions.empty')} className="py-8" />
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full min-w-[32rem] text-left text-sm">
            <caption className="sr-only">{t('users.transactions.title')}</caption>
            <thead className="border-b border-slate-200 bg-slate-50/80 text-xs tracking-wide text-slate-500 uppercase dark:border-slate-800 dark:bg-slate-900/80 dark:text-slate-400">
              <tr>
                <th scope="col" className="px-5 py-3 font-semibold">{t('users.transactions.type')}</th>
                <th scope="col" className="px-5 py-3 font-semibold">{t('users.transactions.amount')}</th>
                <th scope="col" className="px-5 py-3 font-semibold">{t('users.transactions.status')}</th>
                <th scope="col" className="px-5 py-3 font-semibold">{t('users.transactions.date')}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
              {rows.map((row) => (
                <tr key={row.id}>
                  <td className="px-5 py-3">
                    <span className="font-medium text-slate-900 dark:text-white">{row.type ? t(`transactionTypes.${row.type}`, { defaultValue: capitalize(row.type) }) : '—'}</span>
                    {row.description && <span className="block text-xs text-slate-500 dark:text-slate-400">{row.description}</span>}
                  </td>
                  <td className="px-5 py-3 whitespace-nowrap text-slate-900 tabular-nums dark:text-slate-100">
                    {row.amount === null ? '—' : formatUsd(row.amount, 0)}
                  </td>
                  <td className="px-5 py-3">
                    {row.status ? <Badge tone={statusTones[row.status] ?? 'neutral'}>{t(`transactionStatuses.${row.status}`, { defaultValue: capitalize(row.status) })}</Badge> : '—'}
                  </td>
                  <td className="px-5 py-3 whitespace-nowrap text-slate-600 dark:text-slate-300">{row.date ? formatDate(row.date) : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </SectionCard>
  );
}

import type { AuditEntry } from '@terrafund/contracts';
import { EmptyState } from '@/components/ui/empty-state';
import { HistoryIcon } from 'lucide-react';
import { formatDateTime } from '@/lib/format';
import { KYC_STATUSES } from '@terrafund/contracts';
import { i18n, useT } from '@/lib/i18n';
import { kycStatusLabel } from './kyc-status-badge';
import { SectionCard } from './section-card';

const actionKeys: Record<string, string> = {
  'kyc.submitted': 'kycSubmitted',
  'kyc.approved': 'kycApproved',
  'kyc.rejected': 'kycRejected',
};

/** "kyc.approved" → "KYC approved"; an action this screen does not know yet still reads as words. */
function actionLabel(action: string) {
  const known = actionKeys[action];
  if (known) return i18n.t(`admin:users.audit.actions.${known}`);
  const words = action.replace(/[._-]+/g, ' ').replace(/\bkyc\b/gi, 'KYC').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const fieldKeys: Record<string, string> = {
  kycStatus: 'kycStatus',
  kycVerified: 'kycVerified',
  rejectionReason: 'rejectionReason',
  kycRejectionReason: 'rejectionReason',
  role: 'role',
};
const fieldLabel = (key: string) => (fieldKeys[key] ? i18n.t(`admin:users.audit.fields.${fieldKeys[key]}`) : key);

function show(key: string, value: unknown): string {
  if (value === undefined || value === null || value === '') return '—';
  if (key === 'kycStatus' && typeof value === 'string' && (KYC_STATUSES as readonly string[]).includes(value)) {
    return kycStatusLabel(value as (typeof KYC_STATUSES)[number]);
  }
  if (typeof value === 'boolean') return value ? i18n.t('admin:users.audit.yes') : i18n.t('admin:users.audit.no');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

const asRecord = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** Each field the entry changed, with its value before and after. */
function changes(entry: AuditEntry) {
  const before = asRecord(entry.before);
  const after = asRecord(entry.after);
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return keys
    .filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]))
    .map((key) => ({ key, label: fieldLabel(key), from: show(key, before[key]), to: show(key, after[key]) }));
}

/** Who decided what about this user, and when, newest first (decisions are recorded by the server). */
export function AuditLog({ entries }: { entries: AuditEntry[] }) {
  const { t } = useT('admin');
  return (
    <SectionCard title={t('users.audit.title')}>
      {entries.length === 0 ? (
        <EmptyState icon={<HistoryIcon className="h-5 w-5" />} title={t('users.audit.emptyTitle')} description={t('users.audit.emptyDescription')} className="py-8" />
      ) : (
        <ol className="space-y-4">
          {entries.map((entry) => (
            <AuditItem key={entry._id} entry={entry} />
          ))}
        </ol>
      )}
    </SectionCard>
  );
}

function AuditItem({ entry }: { entry: AuditEntry }) {
  const changed = changes(entry);
  const { t } = useT('admin');
  return (
    <li className="flex gap-3">
      <span
        aria-hidden="true"
        className="mt-1 flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-slate-100 text-slate-500 dark:bg-slate-800 dark:text-slate-400"
      >
        <HistoryIcon className="h-4 w-4" />
      </span>
      <div className="min-w-0 flex-1 rounded-xl border border-slate-200 px-4 py-3 dark:border-slate-800">
        <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
          <p className="font-medium text-slate-900 dark:text-white">{actionLabel(entry.action)}</p>
          <time dateTime={entry.createdAt} className="text-xs text-slate-500 dark:text-slate-400">
            {formatDateTime(entry.createdAt)}
          </time>
        </div>
        <p className="mt-0.5 text-sm break-words text-slate-600 dark:text-slate-300">
          {entry.actor ? (
            <>
              {t('users.audit.by', { name: `${entry.actor.firstName} ${entry.actor.lastName}` })}{' '}
              <span className="text-slate-500 dark:text-slate-400">({entry.actor.email})</span>
            </>
          ) : (
            t('users.audit.bySystem')
          )}
        </p>
        {changed.length > 0 && (
          <dl className="mt-2 space-y-1 text-sm">
            {changed.map((change) => (
              <div key={change.key} className="flex flex-wrap gap-x-2">
                <dt className="text-slate-500 dark:text-slate-400">{change.label}:</dt>
                <dd className="min-w-0 break-words text-slate-900 dark:text-slate-100">
                  {change.from} <span aria-hidden="true">→</span> <span className="sr-only">{t('users.audit.changedTo')}</span> {change.to}
                </dd>
              </div>
            ))}
          </dl>
        )}
      </div>
    </li>
  );
}

import { useMemo, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { AUDIT_ACTIONS, messages, type AuditRow } from '@terrafund/contracts';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ListHeading, LoadMore } from '@/components/ui/list-parts';
import { EmptyState } from '@/components/ui/empty-state';
import { ListBody, ListRows } from '@/components/ui/list-body';
import { DownloadIcon, HistoryIcon } from 'lucide-react';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { Table, TBody, Td, Th, THead } from '@/components/ui/table';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useT } from '@/lib/i18n';
import { downloadAuditCsv, useAuditLog, type AuditFilters } from '../api/get-audit-log';

const NO_FILTERS: AuditFilters = { actor: '', action: '', from: '', to: '' };

/** What changed, in one line: the JSON the server recorded, without its braces noise for empty parts. */
function detailsText(details: unknown) {
  if (details === null || details === undefined) return '';
  return JSON.stringify(details);
}

/**
 * The audit log (issue 15): every admin and security decision, newest first, filtered by who, what and when,
 * 50 at a time with Load more, and the same rows as a CSV download.
 */
export function AuditLog() {
  const [draft, setDraft] = useState<AuditFilters>(NO_FILTERS);
  const [filters, setFilters] = useState<AuditFilters>(NO_FILTERS);
  const [downloading, setDownloading] = useState(false);
  const query = useAuditLog(filters);
  const rows = useMemo<AuditRow[]>(() => (query.data?.pages ?? []).flatMap((page) => page.items), [query.data]);
  const filtered = Object.values(filters).some(Boolean);
  const { t, say } = useT('admin');
  const actionOptions = [{ value: '', label: t('audit.filters.allActions') }, ...AUDIT_ACTIONS.map((action) => ({ value: action, label: action }))];

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters({ ...draft, actor: draft.actor.trim() });
  };
  const clear = () => {
    setDraft(NO_FILTERS);
    setFilters(NO_FILTERS);
  };
  const download = async () => {
    setDownloading(true);
    try {
      await downloadAuditCsv(filters);
    } catch (error) {
      toast.error(say(errorMessage(error, messages.admin.auditFailed)));
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Card className="overflow-hidden">
      <form onSubmit={apply} className="grid gap-3 border-b border-slate-200 p-4 sm:grid-cols-2 sm:p-5 lg:grid-cols-5 dark:border-slate-800" aria-label={t('audit.filters.label')}>
        <label className="text-sm font-medium text-slate-700 dark:text-slate-200">
          {t('audit.filters.actor')}
          <Input className="mt-1" type="email" value={draft.actor} onChange={(e) => setDraft({ ...draft, actor: e.target.value })} placeholder={t('audit.filters.actorPlaceholder')} />
        </label>
        <label className="text-sm font-medium text-slate-700 dark:text-slate-200">
          {t('audit.filters.action')}
          <div className="mt-1">
            <Select options={actionOptions} value={draft.action} onChange={(e) => setDraft({ ...draft, action: e.target.value })} />
          </div>
        </label>
        <label className="text-sm font-medium text-slate-700 dark:text-slate-200">
          {t('audit.filters.from')}
          <Input className="mt-1" type="date" value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} />
        </label>
        <label className="text-sm font-medium text-slate-700 dark:text-slate-200">
          {t('audit.filters.to')}
          <Input className="mt-1" type="date" value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
        </label>
        <div className="flex items-end gap-2">
          <Button type="submit">{t('audit.filters.apply')}</Button>
          <Button type="button" variant="outline" onClick={clear} disabled={!filtered && !Object.values(draft).some(Boolean)}>
            {t('audit.filters.clear')}
          </Button>
        </div>
      </form>

      <ListHeading title={t('audit.entries')}>
        <Button variant="outline" size="sm" onClick={() => void download()} isLoading={downloading} disabled={rows.length === 0}>
          <DownloadIcon className="h-4 w-4" /> {t('audit.downloadCsv')}
        </Button>
      </ListHeading>

      <ListBody
        query={query}
        failed={query.isError && !query.data}
        loadingLabel={t('audit.loading')}
        failedTitle={say(errorMessage(query.error, messages.admin.auditFailed))}
        isEmpty={rows.length === 0}
        empty={
          <EmptyState
            icon={<HistoryIcon className="h-5 w-5" />}
            title={filtered ? t('audit.emptyFiltered') : t('audit.empty')}
            action={filtered ? <Button onClick={clear}>{t('audit.clearFilters')}</Button> : undefined}
          />
        }
      >
        <ListRows stale={query.isPlaceholderData}>
          <Table caption={t('audit.caption')} minWidth="min-w-[48rem]">
            <THead>
              <Th>{t('audit.columns.when')}</Th>
              <Th>{t('audit.columns.actor')}</Th>
              <Th>{t('audit.columns.action')}</Th>
              <Th>{t('audit.columns.target')}</Th>
              <Th>{t('audit.columns.details')}</Th>
            </THead>
            <TBody>
              {rows.map((row) => (
                <tr key={row.id}>
                  <Td className="whitespace-nowrap">{formatDateTime(row.at)}</Td>
                  <Td>{row.actorEmail ?? t('audit.operator')}</Td>
                  <Td>
                    <code className="text-xs">{row.action}</code>
                  </Td>
                  <Td className="text-xs">
                    {row.targetType} <span className="text-slate-500">{row.targetId}</span>
                  </Td>
                  <Td className="max-w-md truncate font-mono text-xs" title={detailsText(row.details)}>
                    {detailsText(row.details)}
                  </Td>
                </tr>
              ))}
            </TBody>
          </Table>
        </ListRows>
        <LoadMore query={query} label={t('audit.loadMore')} endText={t('audit.noMore')} />
      </ListBody>
    </Card>
  );
}

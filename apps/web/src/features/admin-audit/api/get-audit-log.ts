import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { messages, type AuditRow } from '@terrafund/contracts';
import { downloadFile, getPage } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** The audit screen's filters, as the server reads them (empty means "any"). */
export type AuditFilters = { actor: string; action: string; from: string; to: string };

const paramsOf = (filters: AuditFilters) => ({
  actor: filters.actor.trim() || undefined,
  action: filters.action || undefined,
  from: filters.from || undefined,
  to: filters.to || undefined,
});

/** One page (50, newest first) of the audit log; the server names the next page's cursor. */
export async function getAuditLog(filters: AuditFilters, cursor: string | undefined, signal?: AbortSignal) {
  const { items, nextCursor } = await getPage<AuditRow>('/admin/audit', { params: { ...paramsOf(filters), cursor }, signal });
  return { items, nextCursor };
}

export const auditLogQueryOptions = (filters: AuditFilters) =>
  infiniteQueryOptions({
    queryKey: queryKeys.admin.auditLog(filters),
    queryFn: ({ pageParam, signal }) => getAuditLog(filters, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    // No X-Next-Cursor: that was the last page.
    getNextPageParam: (lastPage) => lastPage.nextCursor,
  });

export function useAuditLog(filters: AuditFilters) {
  return useInfiniteQuery({ ...auditLogQueryOptions(filters), placeholderData: keepPreviousData, meta: { errorToast: messages.admin.auditFailed } });
}

/** The first page with these filters, as CSV (what the screen shows first, in a spreadsheet). */
export const downloadAuditCsv = (filters: AuditFilters) =>
  downloadFile('/admin/audit', 'terrafund-audit-log.csv', { ...paramsOf(filters), format: 'csv', limit: 100 });

import { useMutation } from '@tanstack/react-query';
import { messages, type StatementQuery } from '@terrafund/contracts';
import { errorMessage, getFile } from '@/lib/api-client';

/** Fetches the member's CSV statement of a date range and hands it to the browser as a download. */
export async function downloadStatement(range: StatementQuery) {
  const { blob, filename } = await getFile('/transactions/export', { params: range });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename ?? `terrafund-statement-${range.from}-to-${range.to}.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked after the click has handed the file over.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function useDownloadStatement() {
  return useMutation({
    mutationFn: downloadStatement,
    meta: { errorToast: (error) => errorMessage(error, messages.statements.downloadFailed) },
  });
}

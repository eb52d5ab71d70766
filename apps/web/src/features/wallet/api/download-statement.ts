import { useMutation } from '@tanstack/react-query';
import { messages, type StatementQuery } from '@terrafund/contracts';
import { errorMessage, getFile, saveFile } from '@/lib/api-client';
import { localizeMessage } from '@terrafund/contracts/i18n';
import { i18n } from '@/lib/i18n';

/** Fetches the member's CSV statement of a date range and hands it to the browser as a download. */
export async function downloadStatement(range: StatementQuery) {
  const { blob, filename } = await getFile('/transactions/export', { params: range });
  saveFile(blob, filename ?? `terrafund-statement-${range.from}-to-${range.to}.csv`);
}

export function useDownloadStatement() {
  return useMutation({
    mutationFn: downloadStatement,
    meta: { errorToast: (error) => errorMessage(error, localizeMessage(i18n.t, messages.statements.downloadFailed)) },
  });
}

import { useMutation } from '@tanstack/react-query';
import { messages, type DataExport } from '@terrafund/contracts';
import { errorMessage, getFile, saveFile } from '@/lib/api-client';
import { localizeMessage } from '@terrafund/contracts/i18n';
import { i18n } from '@/lib/i18n';

/**
 * GET /api/users/data-export/{id}/download: the ZIP, fetched with the session token (a plain link could not send
 * it) and handed to the browser as a download.
 */
export async function downloadDataExport(item: Pick<DataExport, 'id' | 'createdAt'>) {
  const { blob, filename } = await getFile(`/users/data-export/${encodeURIComponent(item.id)}/download`);
  saveFile(blob, filename ?? `terrafund-data-${item.createdAt.slice(0, 10)}.zip`);
}

export function useDownloadDataExport() {
  return useMutation({
    mutationFn: downloadDataExport,
    meta: { errorToast: (error) => errorMessage(error, localizeMessage(i18n.t, messages.toasts.genericError)) },
  });
}

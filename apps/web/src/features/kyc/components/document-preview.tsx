import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useDocumentLink } from '../api/get-document-link';
import { ExternalLinkIcon, FileTextIcon } from 'lucide-react';
import { useT } from '@/lib/i18n';

/**
 * An uploaded document seen through a fresh signed link: the picture itself, or for a PDF a link that
 * opens it in a new tab. The link is never kept beyond this preview.
 */
export function DocumentPreview({ fileUrl, label }: { fileUrl: string; label: string }) {
  const link = useDocumentLink(fileUrl);
  const { t } = useT('kyc');

  if (link.isPending) {
    return (
      <div className="flex h-40 items-center justify-center rounded-lg bg-slate-50 dark:bg-slate-800/50">
        <Spinner size="sm" label={t('documents.loadingPreview', { label })} />
      </div>
    );
  }

  if (link.isError) {
    return (
      <div className="flex h-40 flex-col items-center justify-center gap-2 rounded-lg bg-slate-50 px-4 text-center text-sm text-slate-500 dark:bg-slate-800/50 dark:text-slate-400">
        <p>{t('documents.previewFailed')}</p>
        <Button variant="outline" size="sm" onClick={() => void link.refetch()}>
          {t('documents.retry')}
        </Button>
      </div>
    );
  }

  const { url, contentType } = link.data;
  if (contentType.startsWith('image/')) {
    return (
      <img
        src={url}
        alt={t('documents.preview', { label })}
        // A link that expired while the page sat open is replaced by a fresh one.
        onError={() => void link.refetch()}
        className="h-40 w-full rounded-lg bg-slate-50 object-contain dark:bg-slate-800/50"
      />
    );
  }

  return (
    <div className="flex h-40 flex-col items-center justify-center gap-3 rounded-lg bg-slate-50 px-4 text-center dark:bg-slate-800/50">
      <FileTextIcon className="h-8 w-8 text-slate-400" />
      <a
        href={url}
        target="_blank"
        rel="noopener noreferrer"
        className="inline-flex items-center gap-1.5 rounded-sm text-sm font-medium text-emerald-600 hover:text-emerald-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-500 dark:text-emerald-400 dark:hover:text-emerald-300"
      >
        {t('documents.openPdf', { label: label.toLowerCase() })}
        <ExternalLinkIcon className="h-4 w-4" />
        <span className="sr-only">{t('documents.newTab')}</span>
      </a>
    </div>
  );
}

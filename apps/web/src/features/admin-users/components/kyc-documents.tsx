import { useState } from 'react';
import { KYC_DOCUMENT_TYPES, type KycDocumentLink, type KycDocumentType } from '@terrafund/contracts';
import { Button } from '@/components/ui/button';
import { DownloadIcon, EyeIcon, FileTextIcon } from 'lucide-react';
import { parseDocumentUrl, type Disposition, type DocumentRef } from '@/lib/kyc-links';
import { useFetchDocumentLink } from '../api/get-document-link';
import { DocumentViewerDialog } from './document-viewer-dialog';
import { useT } from '@/lib/i18n';

/** A document's two buttons: View asks for a link to show, Download for one that saves. */
const DOCUMENT_ACTIONS = [
  { disposition: 'inline', Icon: EyeIcon, text: 'users.documents.view', ariaLabel: 'users.documents.viewLabel' },
  { disposition: 'attachment', Icon: DownloadIcon, text: 'users.documents.download', ariaLabel: 'users.documents.downloadLabel' },
] as const;

const extensions: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'application/pdf': 'pdf' };

/** Saves the file behind a signed link under a readable name. */
function saveFile(link: KycDocumentLink, name: string) {
  const anchor = document.createElement('a');
  anchor.href = link.url;
  anchor.download = `${name}.${extensions[link.contentType] ?? 'bin'}`;
  anchor.rel = 'noopener';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
}

/**
 * The three KYC documents, each with View and Download. Both ask for a fresh signed link when pressed:
 * View shows an image in the page and opens a PDF in a new tab; Download saves the file.
 */
export function KycDocuments({ documents, owner }: { documents: string[]; owner: string }) {
  const fetchLink = useFetchDocumentLink();
  const { t } = useT('admin');
  const [busy, setBusy] = useState<{ type: KycDocumentType; disposition: Disposition } | null>(null);
  const [viewing, setViewing] = useState<{ label: string; owner: string; link: KycDocumentLink } | null>(null);

  // The last upload of each type is the one the member submitted.
  const byType = new Map<KycDocumentType, DocumentRef>();
  for (const url of documents) {
    const ref = parseDocumentUrl(url);
    if (ref) byType.set(ref.type, ref);
  }

  const open = async (ref: DocumentRef, disposition: Disposition) => {
    const label = t(`users.documents.types.${ref.type}`);
    setBusy({ type: ref.type, disposition });
    try {
      const link = await fetchLink(ref, disposition);
      if (disposition === 'attachment') {
        saveFile(link, `${owner} - ${label}`);
      } else if (link.contentType.startsWith('image/')) {
        setViewing({ label, owner, link });
      } else {
        // A PDF is best read in the browser's own viewer. Should a blocker refuse the tab, the viewer offers the link.
        const tab = window.open(link.url, '_blank');
        if (tab) tab.opener = null;
        else setViewing({ label, owner, link });
      }
    } catch {
      // The failure has been toasted by the query client.
    } finally {
      setBusy(null);
    }
  };

  return (
    <>
      <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
        {KYC_DOCUMENT_TYPES.map((type) => {
          const ref = byType.get(type);
          const label = t(`users.documents.types.${type}`);
          return (
            <li key={type} className="flex flex-wrap items-center gap-3 px-4 py-3">
              <span className="flex h-9 w-9 shrink-0 items-center justify-center rounded-lg bg-slate-100 text-slate-500 dark:bg-slate-800 dark:text-slate-400">
                <FileTextIcon className="h-4 w-4" />
              </span>
              {/* The label keeps room for itself; on a phone the buttons wrap below it. */}
              <div className="min-w-36 flex-1">
                <p className="font-medium text-slate-900 dark:text-white">{label}</p>
                <p className="text-xs text-slate-500 dark:text-slate-400">{ref ? t('users.documents.uploaded') : t('users.documents.notUploaded')}</p>
              </div>
              {ref && (
                <div className="ml-12 flex gap-2 sm:ml-0">
                  {DOCUMENT_ACTIONS.map(({ disposition, Icon, text, ariaLabel }) => {
                    const pending = busy?.type === type && busy.disposition === disposition;
                    return (
                      <Button
                        key={disposition}
                        variant="outline"
                        size="sm"
                        aria-label={t(ariaLabel, { label })}
                        isLoading={pending}
                        disabled={busy !== null}
                        onClick={() => void open(ref, disposition)}
                      >
                        {!pending && <Icon className="h-4 w-4" />}
                        {t(text)}
                      </Button>
                    );
                  })}
                </div>
              )}
            </li>
          );
        })}
      </ul>
      <DocumentViewerDialog document={viewing} onClose={() => setViewing(null)} />
    </>
  );
}

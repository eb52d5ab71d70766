import { useState } from 'react';
import type { KycDocumentLink } from '@terrafund/contracts';
import { buttonClasses } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { useT } from '@/lib/i18n';

type DocumentViewerDialogProps = {
  /** The document on show, or null when the viewer is closed. */
  document: { label: string; owner: string; link: KycDocumentLink } | null;
  onClose: () => void;
};

/** Shows an image document in the page, from its signed link. */
export function DocumentViewerDialog({ document, onClose }: DocumentViewerDialogProps) {
  const { t } = useT('admin');
  return (
    <Dialog
      open={document !== null}
      onClose={onClose}
      title={document?.label ?? ''}
      description={document ? t('users.documents.viewerDescription', { owner: document.owner }) : undefined}
      className="sm:max-w-3xl"
      footer={
        document && (
          <a href={document.link.url} target="_blank" rel="noopener noreferrer" className={buttonClasses({ variant: 'outline' })}>
            {t('users.documents.openInNewTab')}
          </a>
        )
      }
    >
      {/* Keyed by the link, so a new document starts without the previous one's failure. */}
      {document && <DocumentImage key={document.link.url} src={document.link.url} alt={t('users.documents.imageAlt', { label: document.label, owner: document.owner })} />}
    </Dialog>
  );
}

function DocumentImage({ src, alt }: { src: string; alt: string }) {
  const [failed, setFailed] = useState(false);
  const { t } = useT('admin');
  if (failed) {
    return (
      <p role="alert" className="py-10 text-center text-rose-600 dark:text-rose-400">
        {t('users.documents.imageFailed')}
      </p>
    );
  }
  return (
    <div className="flex justify-center rounded-lg bg-slate-100 p-2 dark:bg-slate-950">
      <img src={src} alt={alt} onError={() => setFailed(true)} className="max-h-[65dvh] w-auto max-w-full object-contain" />
    </div>
  );
}

import { useId, useState, type ChangeEvent } from 'react';
import toast from 'react-hot-toast';
import { messages, type KycDocumentType } from '@terrafund/contracts';
import { Button } from '@/components/ui/button';
import { CheckCircleIcon, TrashIcon, UploadIcon } from 'lucide-react';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { useT } from '@/lib/i18n';
import { useUploadDocument } from '../api/upload-document';
import { acceptFor, checkDocumentFile, formatsFor } from '../utils/documents';
import { DocumentPreview } from './document-preview';

type DocumentUploadProps = {
  type: KycDocumentType;
  /** The fileUrl of the document uploaded for this slot, if any. */
  fileUrl: string | undefined;
  onUploaded: (fileUrl: string) => void;
  onRemove: () => void;
  /** Marks the slot as part of a step that still lacks a document. */
  invalid?: boolean;
  describedBy?: string;
};

const pickerClasses = cn(
  'inline-flex h-9 cursor-pointer items-center justify-center gap-1.5 rounded-lg border border-slate-300 bg-white px-3 text-sm font-medium text-slate-700 shadow-sm transition-colors hover:bg-slate-50',
  'peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-emerald-500',
  'dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800',
);

/**
 * One upload slot: checks the file in the browser, uploads it with an "Uploading file..." toast that
 * turns into the outcome (docs/product.md §10 Messages), and previews what was uploaded.
 */
export function DocumentUpload({ type, fileUrl, onUploaded, onRemove, invalid, describedBy }: DocumentUploadProps) {
  const inputId = useId();
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  const { t, say } = useT('kyc');
  const label = t(`documentTypes.${type}`);
  const upload = useUploadDocument();
  const [error, setError] = useState<string | null>(null);

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Cleared so that choosing the same file again after a failure still triggers a change.
    event.target.value = '';
    if (!file) return;

    const checked = checkDocumentFile(type, file);
    const refusal = checked && say(checked);
    if (refusal) {
      setError(refusal);
      toast.error(refusal);
      return;
    }

    setError(null);
    const toastId = toast.loading(say(messages.kyc.uploading));
    upload.mutate(
      { documentType: type, file },
      {
        onSuccess: ({ fileUrl: uploaded }) => {
          toast.success(say(messages.kyc.uploaded), { id: toastId });
          onUploaded(uploaded);
        },
        onError: (failure) => {
          const message = errorMessage(failure, say(messages.kyc.uploadFailed));
          setError(message);
          toast.error(message, { id: toastId });
        },
      },
    );
  };

  const describedByIds = [error ? errorId : hintId, describedBy].filter(Boolean).join(' ');
  const showInvalid = Boolean(error) || (Boolean(invalid) && !fileUrl);

  return (
    <div
      className={cn(
        'flex flex-col rounded-xl border p-4 transition-colors',
        !fileUrl && 'border-dashed',
        showInvalid
          ? 'border-rose-400 dark:border-rose-400/70'
          : fileUrl
            ? 'border-emerald-200 bg-emerald-50/40 dark:border-emerald-500/30 dark:bg-emerald-500/5'
            : 'border-slate-300 dark:border-slate-700',
      )}
    >
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="flex items-center gap-1.5 text-sm font-semibold text-slate-900 dark:text-white">
            {label}
            {fileUrl && (
              <>
                <CheckCircleIcon className="h-4 w-4 text-emerald-600 dark:text-emerald-400" />
                <span className="sr-only">{t('documents.uploaded')}</span>
              </>
            )}
          </h3>
          <p id={hintId} className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">
            {t('documents.formats', { formats: t(formatsFor(type)) })}
          </p>
        </div>
      </div>

      <div className="mt-3 flex-1">
        {fileUrl ? (
          <DocumentPreview fileUrl={fileUrl} label={label} />
        ) : (
          <div className="flex h-40 flex-col items-center justify-center gap-2 rounded-lg bg-slate-50 text-slate-400 dark:bg-slate-800/50 dark:text-slate-500">
            <UploadIcon className="h-7 w-7" />
            <span className="text-xs">{t('documents.noFile')}</span>
          </div>
        )}
      </div>

      <div className="mt-3 flex flex-wrap items-center gap-2">
        <input
          id={inputId}
          type="file"
          accept={acceptFor(type)}
          onChange={onChange}
          disabled={upload.isPending}
          aria-invalid={showInvalid || undefined}
          aria-describedby={describedByIds || undefined}
          className="peer sr-only"
        />
        <label htmlFor={inputId} className={cn(pickerClasses, upload.isPending && 'pointer-events-none opacity-60')}>
          {upload.isPending ? (
            <span aria-hidden="true" className="h-4 w-4 animate-spin rounded-full border-2 border-current/25 border-t-current" />
          ) : (
            <UploadIcon className="h-4 w-4" />
          )}
          {upload.isPending ? t('documents.uploading') : fileUrl ? t('documents.replace') : t('documents.choose')}
          <span className="sr-only">{t('documents.forLabel', { label })}</span>
        </label>
        {fileUrl && !upload.isPending && (
          <Button variant="ghost" size="sm" onClick={onRemove} aria-label={t('documents.removeLabel', { label })}>
            <TrashIcon className="h-4 w-4" />
            {t('documents.remove')}
          </Button>
        )}
      </div>

      {error && (
        <p id={errorId} className="mt-2 text-sm text-rose-600 dark:text-rose-400">
          {error}
        </p>
      )}
    </div>
  );
}

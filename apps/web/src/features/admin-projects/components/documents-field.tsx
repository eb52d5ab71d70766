import { useId, useState, type ChangeEvent } from 'react';
import { useFieldArray, useFormContext } from 'react-hook-form';
import { PROJECT_MAX_DOCUMENTS, messages } from '@terrafund/contracts';
import { Button } from '@/components/ui/button';
import { ExternalLinkIcon, FileTextIcon, TrashIcon, UploadIcon } from 'lucide-react';
import { Input } from '@/components/ui/input';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { useUploadProjectAsset } from '../api/upload-project-asset';
import { checkDocumentFile, documentNameOf, DOCUMENT_TYPES } from '../utils/asset-files';
import { firstMessage, type ProjectFormInput } from '../utils/project-form';
import { useT } from '@/lib/i18n';

const pickerClasses = cn(
  'inline-flex h-9 cursor-pointer items-center justify-center gap-1.5 rounded-lg border border-slate-300 bg-white px-3 text-sm font-medium text-slate-700 shadow-sm transition-colors hover:bg-slate-50',
  'peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-emerald-500',
  'dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800',
);

/** The project's documents: PDFs uploaded one at a time, each with the name members will see. */
export function DocumentsField() {
  const {
    control,
    register,
    formState: { errors },
  } = useFormContext<ProjectFormInput>();
  const { fields, append, remove } = useFieldArray({ control, name: 'details.documents' });
  const upload = useUploadProjectAsset();
  const { t, say } = useT('admin');
  const [problem, setProblem] = useState<string | null>(null);
  const inputId = useId();
  const hintId = useId();
  const problemId = useId();

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const refusal = checkDocumentFile(file);
    setProblem(refusal && say(refusal));
    if (refusal) return;
    upload.mutate(
      { kind: 'document', file },
      {
        // The name as the admin saved the file (the server keeps a sanitised copy for downloads).
        onSuccess: (asset) => append({ name: documentNameOf(file.name), url: asset.url }),
        onError: (failure) => setProblem(say(errorMessage(failure, messages.projects.uploadFailed))),
      },
    );
  };

  const listError = errors.details?.documents?.root?.message ?? errors.details?.documents?.message;
  const shown = problem ?? (listError && say(listError));
  const full = fields.length >= PROJECT_MAX_DOCUMENTS;

  return (
    <div className="space-y-3">
      {fields.length > 0 ? (
        <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
          {fields.map((field, i) => {
            const rowError = firstMessage(errors.details?.documents?.[i]);
            const nameId = `${inputId}-name-${i}`;
            return (
              <li key={field.id} className="flex flex-col gap-2 p-3 sm:flex-row sm:items-start">
                <FileTextIcon className="mt-2.5 hidden h-5 w-5 shrink-0 text-slate-400 sm:block" />
                <div className="min-w-0 flex-1">
                  <label htmlFor={nameId} className="sr-only">
                    {t('projects.documents.name', { number: i + 1 })}
                  </label>
                  <Input
                    id={nameId}
                    {...register(`details.documents.${i}.name`)}
                    aria-invalid={rowError ? true : undefined}
                    aria-describedby={rowError ? `${nameId}-error` : undefined}
                    placeholder={t('projects.documents.namePlaceholder')}
                  />
                  {rowError && (
                    <p id={`${nameId}-error`} className="mt-1.5 text-sm text-rose-600 dark:text-rose-400">
                      {say(rowError)}
                    </p>
                  )}
                </div>
                <div className="flex shrink-0 items-center gap-1">
                  <a
                    href={field.url}
                    target="_blank"
                    rel="noopener noreferrer"
                    aria-label={t('projects.documents.openLabel', { number: i + 1 })}
                    className="inline-flex h-10 items-center gap-1.5 rounded-lg px-3 text-sm font-medium text-emerald-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-emerald-500 dark:text-emerald-400 dark:hover:bg-slate-800"
                  >
                    {t('projects.documents.open')}
                    <ExternalLinkIcon className="h-4 w-4" />
                  </a>
                  <Button variant="ghost" size="icon" onClick={() => remove(i)} aria-label={t('projects.documents.remove', { number: i + 1 })}>
                    <TrashIcon className="h-4 w-4" />
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="text-sm text-slate-500 dark:text-slate-400">{t('projects.documents.empty')}</p>
      )}

      {!full && (
        <div className="flex flex-wrap items-center gap-3">
          <input
            id={inputId}
            type="file"
            accept={DOCUMENT_TYPES.join(',')}
            onChange={onFile}
            disabled={upload.isPending}
            aria-describedby={[shown ? problemId : null, hintId].filter(Boolean).join(' ')}
            aria-invalid={shown ? true : undefined}
            className="peer sr-only"
          />
          <label htmlFor={inputId} className={cn(pickerClasses, upload.isPending && 'pointer-events-none opacity-60')}>
            {upload.isPending ? (
              <span aria-hidden="true" className="h-4 w-4 animate-spin rounded-full border-2 border-current/25 border-t-current" />
            ) : (
              <UploadIcon className="h-4 w-4" />
            )}
            {upload.isPending ? t('projects.documents.uploading') : t('projects.documents.upload')}
          </label>
          <p id={hintId} className="text-xs text-slate-500 dark:text-slate-400">
            {t('projects.documents.hint')}
          </p>
        </div>
      )}
      {shown && (
        <p id={problemId} role="alert" className="text-sm text-rose-600 dark:text-rose-400">
          {shown}
        </p>
      )}
    </div>
  );
}

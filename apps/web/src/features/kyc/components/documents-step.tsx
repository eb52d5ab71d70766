import { useId } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { KYC_REQUIRED_DOCUMENTS, type KycDocumentType } from '@terrafund/contracts';
import { Checkbox } from '@/components/ui/checkbox';
import { sayKycMessage, type KycDocument } from '../utils/documents';
import type { KycFormValues } from '../utils/kyc-form';
import { useT } from '@/lib/i18n';
import { DocumentUpload } from './document-upload';

/**
 * An upload slot for each document the chosen ID type needs (the front, the back of a card, a proof of
 * address), and the confirmation that the answers are true (docs/product.md §4.2 The wizard, docs/product.md §4 KYC).
 */
export function DocumentsStep({ form }: { form: UseFormReturn<KycFormValues> }) {
  const { register, watch, setValue, formState } = form;
  const { errors, isSubmitted } = formState;
  const documentsErrorId = useId();
  const { t, say } = useT('kyc');
  const idType = watch('idType');
  const documents = watch('documents');
  const needed = KYC_REQUIRED_DOCUMENTS[watch('idType')];
  const documentsError = errors.documents?.message ?? errors.documents?.root?.message;

  const replace = (type: KycDocumentType, next: KycDocument | null) => {
    const others = documents.filter((document) => document.type !== type);
    const updated = next ? [...others, next] : others;
    // Re-checked at once only after a first attempt, like the other fields.
    setValue('documents', updated, { shouldDirty: true, shouldValidate: isSubmitted });
  };

  return (
    <div className="space-y-6">
      <div
        role="group"
        aria-label={t('documents.group')}
        aria-describedby={documentsError ? documentsErrorId : undefined}
        className={needed.length === 3 ? 'grid gap-4 md:grid-cols-3' : 'grid gap-4 md:grid-cols-2'}
      >
        {needed.map((type) => (
          <DocumentUpload
            key={type}
            type={type}
            fileUrl={documents.find((document) => document.type === type)?.url}
            onUploaded={(url) => replace(type, { url, type })}
            onRemove={() => replace(type, null)}
            invalid={Boolean(documentsError)}
            describedBy={documentsError ? documentsErrorId : undefined}
          />
        ))}
      </div>
      {documentsError && (
        <p id={documentsErrorId} className="-mt-2 text-sm text-rose-600 dark:text-rose-400">
          {sayKycMessage(documentsError, { idType, documents })}
        </p>
      )}

      <div className="rounded-xl border border-slate-200 bg-slate-50 p-4 dark:border-slate-800 dark:bg-slate-800/40">
        <Checkbox
          id="kyc-confirmed"
          {...register('confirmed')}
          error={errors.confirmed?.message && say(errors.confirmed.message)}
          label={t('documents.confirm')}
        />
      </div>
    </div>
  );
}

import { parseDocumentUrl } from '@/lib/kyc-links';
import {
  KYC_ALLOWED_TYPES,
  KYC_MAX_FILE_BYTES,
  messages,
  missingDocumentsMessage,
  missingKycDocuments,
  type IdType,
  type KycDocumentType,
} from '@terrafund/contracts';
import { INTL_LOCALES, localizeMessage } from '@terrafund/contracts/i18n';
import { currentLanguage, i18n } from '@/lib/i18n';

/** A document as the wizard holds it (docs/product.md §4.2 The wizard, KYC form: documents are {url, type}). */
export type KycDocument = { url: string; type: KycDocumentType };

/** The stored fileUrls of a submission, back in the wizard's shape; unreadable ones are left out. */
export function toKycDocuments(fileUrls: readonly string[]): KycDocument[] {
  const documents: KycDocument[] = [];
  for (const url of fileUrls) {
    const parsed = parseDocumentUrl(url);
    if (parsed && !documents.some((d) => d.type === parsed.type)) documents.push({ url, type: parsed.type });
  }
  return documents;
}

/**
 * The browser's own check before uploading, with the server's messages. The server decides again
 * from the file's bytes; this only spares a doomed upload.
 */
export function checkDocumentFile(type: KycDocumentType, file: File): string | null {
  if (file.size > KYC_MAX_FILE_BYTES) return messages.kyc.fileTooLarge;
  if (!KYC_ALLOWED_TYPES[type].includes(file.type)) return messages.kyc.invalidFileType;
  return null;
}

/**
 * A KYC message in the screen's language. "Please upload your ID front and proof of address…" names the documents
 * in English inside the sentence (contracts `missingDocumentsMessage`): in another language the list is made again
 * from the kyc catalogue's names, joined the language's way.
 */
export function sayKycMessage(text: string, values: { idType: IdType; documents: readonly { type: KycDocumentType }[] }): string {
  const language = currentLanguage();
  const missing = missingKycDocuments(values.idType, values.documents.map((document) => document.type));
  if (language === 'en' || missing.length === 0 || text !== missingDocumentsMessage(missing)) return localizeMessage(i18n.t, text);
  const names = missing.map((type) => {
    const name = i18n.t(`kyc:documentTypes.${type}`);
    return name.charAt(0).toLocaleLowerCase(INTL_LOCALES[language]) + name.slice(1);
  });
  const documents = new Intl.ListFormat(INTL_LOCALES[language], { type: 'conjunction' }).format(names);
  return i18n.t('messages:kyc.documentsMissing', { documents, defaultValue: localizeMessage(i18n.t, text) });
}

/** What the file picker offers, and the hint under each slot (its kyc catalogue key: "JPG, PNG or PDF"). */
export const acceptFor = (type: KycDocumentType) => KYC_ALLOWED_TYPES[type].join(',');
export const formatsFor = (type: KycDocumentType) =>
  KYC_ALLOWED_TYPES[type].includes('application/pdf') ? 'documents.formatsWithPdf' : 'documents.formatsImages';

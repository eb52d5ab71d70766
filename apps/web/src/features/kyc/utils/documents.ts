import { parseDocumentUrl } from '@/lib/kyc-links';
import { KYC_ALLOWED_TYPES, KYC_MAX_FILE_BYTES, messages, type KycDocumentType } from '@terrafund/contracts';

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

/** What the file picker offers, and the hint under each slot. */
export const acceptFor = (type: KycDocumentType) => KYC_ALLOWED_TYPES[type].join(',');
export const formatsFor = (type: KycDocumentType) =>
  KYC_ALLOWED_TYPES[type].includes('application/pdf') ? 'JPG, PNG or PDF' : 'JPG or PNG';

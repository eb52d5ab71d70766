import { PROJECT_DOCUMENT_MAX_BYTES, PROJECT_IMAGE_MAX_BYTES, messages } from '@terrafund/contracts';
import { i18n } from '@/lib/i18n';

const m = messages.projects;

export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const DOCUMENT_TYPES = ['application/pdf'] as const;

/**
 * The browser's own check before uploading, with the server's messages. The server decides again from the
 * file's bytes; this only spares a doomed upload of up to 10 MB.
 */
export function checkImageFile(file: File): string | null {
  if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) return m.imageTypeInvalid;
  if (file.size > PROJECT_IMAGE_MAX_BYTES) return m.imageTooLarge;
  return null;
}

export function checkDocumentFile(file: File): string | null {
  if (!(DOCUMENT_TYPES as readonly string[]).includes(file.type)) return m.documentTypeInvalid;
  if (file.size > PROJECT_DOCUMENT_MAX_BYTES) return m.documentTooLarge;
  return null;
}

/** "Floor plans.pdf" → "Floor plans": the name a document starts with, which the admin may change. */
export const documentNameOf = (fileName: string) => fileName.replace(/\.pdf$/i, '').trim() || i18n.t('admin:projects.documents.defaultName');

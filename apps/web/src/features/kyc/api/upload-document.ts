import { useMutation } from '@tanstack/react-query';
import type { KycDocumentType, KycUploadResponse } from '@terrafund/contracts';
import { api } from '@/lib/api-client';

export type UploadDocumentInput = { documentType: KycDocumentType; file: File };

/**
 * POST /kyc/upload-document as multipart/form-data. The document type goes before the file, so the
 * server knows which types it accepts before the file's bytes arrive.
 */
export function uploadDocument({ documentType, file }: UploadDocumentInput) {
  const body = new FormData();
  body.append('documentType', documentType);
  body.append('file', file);
  return api.post<KycUploadResponse>('/kyc/upload-document', body);
}

export function useUploadDocument() {
  // The upload slot turns its own "Uploading file..." toast into the outcome (docs/product.md §10 Messages).
  return useMutation({ mutationFn: uploadDocument, meta: { skipGlobalToast: true } });
}

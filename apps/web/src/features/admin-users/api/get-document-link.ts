import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { KYC_DOCUMENT_TYPES, type KycDocumentLink, type KycDocumentType } from '@terrafund/contracts';
import { api } from '@/lib/api-client';

export type DocumentRef = { type: KycDocumentType; id: string };

/**
 * Reads a stored document's fileUrl (`/api/kyc/documents/idFront/<id>`, possibly absolute) into its type
 * and id; anything else is not a document this screen can open.
 */
export function parseDocumentUrl(fileUrl: string): DocumentRef | null {
  let pathname: string;
  try {
    pathname = new URL(fileUrl, 'http://localhost').pathname;
  } catch {
    return null;
  }
  const segments = pathname.split('/').filter(Boolean);
  const at = segments.indexOf('documents');
  const type = segments[at + 1];
  const id = segments[at + 2];
  if (at < 0 || !type || !id || !(KYC_DOCUMENT_TYPES as readonly string[]).includes(type)) return null;
  return { type: type as KycDocumentType, id };
}

/** `inline` shows the file in the browser; `attachment` makes the browser save it. */
export type Disposition = 'inline' | 'attachment';

/** A signed link to one private KYC document, valid for a few minutes. */
export const getDocumentLink = ({ type, id }: DocumentRef, disposition: Disposition) =>
  api.get<KycDocumentLink>(`/kyc/documents/${encodeURIComponent(type)}/${encodeURIComponent(id)}/link`, {
    params: { disposition },
  });

export const documentLinkQueryOptions = (ref: DocumentRef, disposition: Disposition) =>
  queryOptions({
    queryKey: ['kyc', 'document-link', ref.type, ref.id, disposition],
    queryFn: () => getDocumentLink(ref, disposition),
    // The link expires within minutes: every View or Download asks for a fresh one and nothing keeps it.
    staleTime: 0,
    gcTime: 0,
  });

/** Fetches a fresh signed link when the admin asks to see or save a document. */
export function useFetchDocumentLink() {
  const queryClient = useQueryClient();
  return useCallback(
    (ref: DocumentRef, disposition: Disposition) => queryClient.fetchQuery(documentLinkQueryOptions(ref, disposition)),
    [queryClient],
  );
}

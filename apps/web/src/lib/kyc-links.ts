import { KYC_DOCUMENT_TYPES, type KycDocumentLink, type KycDocumentType } from '@terrafund/contracts';
import { api } from '@/lib/api-client';

/**
 * Private KYC files are reached only through short-lived signed links (docs/product.md §4.3 Documents): a
 * stored fileUrl names the document, and GET /kyc/documents/:type/:id/link answers a link to open it with.
 */
export type DocumentRef = { type: KycDocumentType; id: string };

/** `inline` shows the file in the browser; `attachment` makes the browser save it. */
export type Disposition = 'inline' | 'attachment';

const DOCUMENT_PATH = new RegExp(`/kyc/documents/(${KYC_DOCUMENT_TYPES.join('|')})/([^/?#]+)`);

/** The type and id inside a fileUrl such as `/api/kyc/documents/idFront/<uuid>` (possibly absolute); null for anything else. */
export function parseDocumentUrl(fileUrl: string): DocumentRef | null {
  const match = DOCUMENT_PATH.exec(fileUrl);
  if (!match) return null;
  return { type: match[1] as KycDocumentType, id: decodeURIComponent(match[2] as string) };
}

/** A signed link to one private KYC document, valid for a few minutes; without a disposition the server's default (inline). */
export function getDocumentLink({ type, id }: DocumentRef, { disposition, signal }: { disposition?: Disposition; signal?: AbortSignal } = {}) {
  return api.get<KycDocumentLink>(`/kyc/documents/${type}/${encodeURIComponent(id)}/link`, {
    signal,
    ...(disposition ? { params: { disposition } } : {}),
  });
}

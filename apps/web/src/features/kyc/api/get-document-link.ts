import { queryOptions, useQuery } from '@tanstack/react-query';
import type { KycDocumentLink } from '@terrafund/contracts';
import { getDocumentLink, parseDocumentUrl } from '@/lib/kyc-links';
import { queryKeys } from '@/lib/query-keys';

/** How long before a signed link expires it is replaced, so a preview never shows a dead link. */
const RENEW_BEFORE_EXPIRY_MS = 30_000;
const MIN_RENEW_INTERVAL_MS = 5_000;

/** GET /kyc/documents/:type/:id/link: a short-lived signed address for one uploaded document. */
function getUploadedDocumentLink(fileUrl: string, signal?: AbortSignal) {
  const document = parseDocumentUrl(fileUrl);
  if (!document) throw new Error(`Not a KYC document address: ${fileUrl}`);
  return getDocumentLink(document, { signal });
}

/** Milliseconds until the link should be replaced; 0 when there is none yet. */
function renewIn(query: { state: { data: KycDocumentLink | undefined } }) {
  const expiresAt = query.state.data ? Date.parse(query.state.data.expiresAt) : Number.NaN;
  if (Number.isNaN(expiresAt)) return 0;
  return Math.max(expiresAt - Date.now() - RENEW_BEFORE_EXPIRY_MS, MIN_RENEW_INTERVAL_MS);
}

/**
 * The link lives only in memory, only while a preview shows it (gcTime 0), and is renewed shortly
 * before it expires (docs/product.md §4 KYC: documents are reached through short-lived signed links).
 */
export const documentLinkQueryOptions = (fileUrl: string) =>
  queryOptions({
    queryKey: queryKeys.kycDocumentLink(fileUrl),
    queryFn: ({ signal }) => getUploadedDocumentLink(fileUrl, signal),
    staleTime: renewIn,
    refetchInterval: (query) => renewIn(query) || false,
    gcTime: 0,
  });

export function useDocumentLink(fileUrl: string) {
  // A preview that cannot load says so in place; it is not worth a toast.
  return useQuery({ ...documentLinkQueryOptions(fileUrl), meta: { skipGlobalToast: true } });
}

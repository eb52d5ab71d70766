import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { getDocumentLink, type Disposition, type DocumentRef } from '@/lib/kyc-links';
import { queryKeys } from '@/lib/query-keys';

export const documentLinkQueryOptions = (ref: DocumentRef, disposition: Disposition) =>
  queryOptions({
    queryKey: queryKeys.admin.kycDocumentLink(ref.type, ref.id, disposition),
    queryFn: () => getDocumentLink(ref, { disposition }),
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

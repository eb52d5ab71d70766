import { useMutation } from '@tanstack/react-query';
import type { ProjectAsset, ProjectAssetKind } from '@terrafund/contracts';
import { api } from '@/lib/api-client';

export type UploadProjectAssetInput = { kind: ProjectAssetKind; file: File };

/**
 * POST /projects/assets as multipart/form-data. The kind also travels in the address, so the server can
 * refuse an oversized file with the right words before reading any of it, and before the file in the body,
 * so it knows which types apply before the file's bytes arrive.
 */
export function uploadProjectAsset({ kind, file }: UploadProjectAssetInput) {
  const body = new FormData();
  body.append('kind', kind);
  body.append('file', file);
  return api.post<ProjectAsset>('/projects/assets', body, { params: { kind } });
}

export function useUploadProjectAsset() {
  // The upload field shows its own failure beside the files.
  return useMutation({ mutationFn: uploadProjectAsset, meta: { skipGlobalToast: true } });
}

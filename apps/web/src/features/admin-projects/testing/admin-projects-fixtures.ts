import type { ProjectAsset } from '@terrafund/contracts';

/** Answers POST /projects/assets as the server does: each upload gets its own asset address. */
export function assetUploads() {
  let n = 0;
  return () => {
    n += 1;
    const id = `eeeeeeee-eeee-4eee-8eee-${String(n).padStart(12, '0')}`;
    return { status: 201, body: { _id: id, kind: 'image', name: `upload-${n}`, contentType: 'image/webp', url: `/api/projects/assets/${id}`, fileUrl: `/api/projects/assets/${id}` } satisfies ProjectAsset };
  };
}

/** The multipart uploads the app sent to one path: the form's fields (the file as its name) and the query. */
export function uploadsTo(fetchMock: { mock: { calls: unknown[][] } }, path: string) {
  return fetchMock.mock.calls
    .map(([input, init]) => ({ url: new URL(String(input), 'http://localhost'), body: (init as RequestInit).body }))
    .filter(({ url, body }) => url.pathname === `/api${path}` && body instanceof FormData)
    .map(({ url, body }) => ({
      query: Object.fromEntries(url.searchParams),
      fields: [...(body as FormData).entries()].map(([key, value]) => [key, value instanceof File ? value.name : value]),
    }));
}

export const png = (name: string) => new File(['\x89PNG'], name, { type: 'image/png' });
export const pdf = (name: string) => new File(['%PDF-1.7'], name, { type: 'application/pdf' });

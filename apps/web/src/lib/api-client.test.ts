import { describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '@terrafund/contracts';
import { api, ApiError } from './api-client';

function stubFetch(status = 200, body: unknown = { ok: true }) {
  const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('api client', () => {
  it('sends a plain value as JSON, with the session token', async () => {
    localStorage.setItem(STORAGE_KEYS.token, 'abc');
    const fetchMock = stubFetch();

    await expect(api.patch('/users/profile', { firstName: 'Ada' })).resolves.toEqual({ ok: true });

    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/users/profile');
    expect(init?.method).toBe('PATCH');
    expect(init?.body).toBe('{"firstName":"Ada"}');
    const headers = new Headers(init?.headers);
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(headers.get('Authorization')).toBe('Bearer abc');
  });

  it('sends FormData as it is, leaving the multipart content type and boundary to the browser', async () => {
    localStorage.setItem(STORAGE_KEYS.token, 'abc');
    const fetchMock = stubFetch(201, { fileUrl: '/api/kyc/documents/idFront/1', documentType: 'idFront' });
    const form = new FormData();
    form.append('documentType', 'idFront');
    form.append('file', new File(['x'], 'id.png', { type: 'image/png' }));

    await expect(api.post('/kyc/upload-document', form)).resolves.toEqual({ fileUrl: '/api/kyc/documents/idFront/1', documentType: 'idFront' });

    const [, init] = fetchMock.mock.calls[0]!;
    expect(init?.body).toBe(form);
    const headers = new Headers(init?.headers);
    expect(headers.get('Content-Type')).toBeNull();
    expect(headers.get('Authorization')).toBe('Bearer abc');
  });

  it("turns a refused upload into an ApiError with the server's message", async () => {
    stubFetch(413, { message: 'File size must be less than 5MB', code: 'PAYLOAD_TOO_LARGE' });

    const failure = await api.post('/kyc/upload-document', new FormData()).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE', serverMessage: 'File size must be less than 5MB' });
  });
});

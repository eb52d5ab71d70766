import { messages, type ErrorResponse } from '@terrafund/contracts';
import { getToken } from './auth-storage';
import { currentLanguage } from './i18n';

const API_BASE = '/api';

/**
 * A failed call: the HTTP status (0 when the server could not be reached) and the server's answer.
 * `serverMessage` is the server's own words, when it gave any; `message` always reads as a sentence.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly serverMessage?: string;
  readonly fields?: Record<string, string>;
  readonly retryAfter?: number;

  constructor(init: { status: number; code: string; serverMessage?: string; fields?: Record<string, string>; retryAfter?: number }) {
    super(init.serverMessage ?? messages.common.unexpected);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.serverMessage = init.serverMessage;
    this.fields = init.fields;
    this.retryAfter = init.retryAfter;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** The server's message for a failure, or the screen's own fallback (docs/product.md §10 Messages: "the server message or ..."). */
export function errorMessage(error: unknown, fallback: string): string {
  return (isApiError(error) && error.serverMessage) || fallback;
}

type Query = Record<string, string | number | boolean | null | undefined>;

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** A plain value is sent as JSON; FormData is sent as multipart. */
  body?: unknown;
  /** Query parameters; empty values are left out. */
  params?: Query;
  signal?: AbortSignal;
};

/** The address `api` calls for `path` and `params`: /api, the path, and the non-empty parameters. */
export function apiUrl(path: string, params?: Query) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params ?? {})) {
    if (value !== undefined && value !== null && value !== '') search.append(key, String(value));
  }
  const query = search.toString();
  return `${API_BASE}${path}${query ? `?${query}` : ''}`;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function toApiError(response: Response, body: unknown): ApiError {
  const parsed = (body && typeof body === 'object' ? body : {}) as Partial<ErrorResponse>;
  const header = Number(response.headers.get('retry-after'));
  const retryAfter = typeof parsed.retryAfter === 'number' ? parsed.retryAfter : Number.isFinite(header) && header > 0 ? header : undefined;
  return new ApiError({
    status: response.status,
    serverMessage: typeof parsed.message === 'string' && parsed.message ? parsed.message : undefined,
    code: typeof parsed.code === 'string' ? parsed.code : 'HTTP_ERROR',
    fields: parsed.fields,
    retryAfter,
  });
}

declare global {
  interface Window {
    /** GETs the page itself sent before the app had loaded (index.html), by address, with the token they carried. */
    __early?: Record<string, { token: string; response: Promise<Response> }>;
  }
}

/**
 * The answer to a GET the page already sent with this token (index.html: the start-up profile check and the
 * screen's first figures, while the app's scripts download), taken once: a later call asks the server afresh.
 */
function takeEarlyResponse(url: string, token: string | null): Promise<Response> | undefined {
  const early = typeof window === 'undefined' ? undefined : window.__early;
  const entry = early?.[url];
  if (!entry) return undefined;
  delete early[url];
  return entry.token === token ? entry.response : undefined;
}

/** Calls the API and hands back the answer's body and headers; throws an ApiError on failure. */
async function send(path: string, { method = 'GET', body, params, signal }: RequestOptions = {}): Promise<{ data: unknown; headers: Headers; status: number }> {
  // The server answers its messages in the app's language (issue 35), whatever the browser's own languages are.
  const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': currentLanguage() };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;

  let payload: BodyInit | undefined;
  if (body instanceof FormData) {
    payload = body;
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }

  const url = apiUrl(path, params);
  let response: Response;
  try {
    const early = method === 'GET' ? takeEarlyResponse(url, token) : undefined;
    response = await (early ?? fetch(url, { method, headers, body: payload, signal }));
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw new ApiError({ status: 0, code: 'NETWORK_ERROR' });
  }

  const data = await readBody(response);
  if (!response.ok) throw toApiError(response, data);
  return { data, headers: response.headers, status: response.status };
}

/** Calls the API under /api with the session token attached; resolves with the JSON answer or throws an ApiError. */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return (await send(path, options)).data as T;
}

/**
 * One page of a list the server pages, and how many items the whole list holds; `nextCursor` is set when
 * the server pages by keyset and names where the next page starts.
 */
export type Page<T> = { items: T[]; total: number; nextCursor?: string };

/**
 * GETs one page of a server-paged list: the page is the JSON array (the spec's shape), the size of the
 * whole list comes in the X-Total-Count header, and a keyset-paged list names its next page in X-Next-Cursor.
 */
export async function getPage<T>(path: string, options: Omit<RequestOptions, 'method' | 'body'> = {}): Promise<Page<T>> {
  const { data, headers, status } = await send(path, { ...options, method: 'GET' });
  if (!Array.isArray(data)) throw new ApiError({ status, code: 'INVALID_RESPONSE' });
  const total = Number(headers.get('x-total-count'));
  return {
    items: data as T[],
    total: headers.has('x-total-count') && Number.isFinite(total) ? total : data.length,
    nextCursor: headers.get('x-next-cursor') || undefined,
  };
}

/**
 * GETs a file the server builds (a CSV statement or export) with the session token, which a plain link could not
 * send: answers its bytes and the file name from Content-Disposition. Failures throw an ApiError like any call.
 */
export async function getFile(path: string, { params, signal }: Omit<RequestOptions, 'method' | 'body'> = {}): Promise<{ blob: Blob; filename?: string }> {
  const headers: Record<string, string> = { 'Accept-Language': currentLanguage() };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(apiUrl(path, params), { headers, signal });
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw new ApiError({ status: 0, code: 'NETWORK_ERROR' });
  }
  if (!response.ok) throw toApiError(response, await readBody(response));
  const disposition = response.headers.get('content-disposition') ?? '';
  const filename = /filename="?([^";]+)"?/i.exec(disposition)?.[1];
  return { blob: await response.blob(), filename };
}

/** Downloads what `getFile` fetches and hands it to the browser as a download named `filename`. */
export async function downloadFile(path: string, filename: string, params?: Query): Promise<void> {
  const { blob } = await getFile(path, { params });
  saveFile(blob, filename);
}

/**
 * Hands a fetched file to the browser as a download under `filename` (files that need the session token, which a
 * plain link could not send: the statement, the data export, the audit log).
 */
export function saveFile(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked after the click has handed the file over.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) => request<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...options, method: 'POST', body }),
  patch: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...options, method: 'PATCH', body }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...options, method: 'PUT', body }),
  delete: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) => request<T>(path, { ...options, method: 'DELETE' }),
};

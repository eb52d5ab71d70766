/** Calls to a provider's API: JSON in and out, a timeout, and one error type that says what went wrong. */

const PROVIDER_TIMEOUT_MS = 10_000;

/**
 * A provider call that did not give a usable answer. `status` is the HTTP status when one came back
 * (undefined for network errors and timeouts); `body` is the answer, parsed when it was JSON. The message
 * never contains request headers, so API keys stay out of logs.
 */
export class ProviderHttpError extends Error {
  readonly provider: string;
  readonly status?: number;
  readonly body?: unknown;

  constructor(provider: string, message: string, details: { status?: number; body?: unknown; cause?: unknown } = {}) {
    super(`${provider}: ${message}`, { cause: details.cause });
    this.name = 'ProviderHttpError';
    this.provider = provider;
    this.status = details.status;
    this.body = details.body;
  }
}

type ProviderRequest = {
  provider: string;
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
  timeoutMs?: number;
};

const MAX_ERROR_BODY = 2_000;

/** Sends the request and answers the parsed JSON of a 2xx response; anything else throws ProviderHttpError. */
export async function requestJson(request: ProviderRequest): Promise<{ status: number; body: unknown }> {
  const { provider, method, url } = request;
  const timeoutMs = request.timeoutMs ?? PROVIDER_TIMEOUT_MS;
  const what = `${method} ${new URL(url).pathname}`;
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method,
      headers: {
        accept: 'application/json',
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...request.headers,
      },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
    text = await response.text();
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    const reason = timedOut ? `timed out after ${timeoutMs} ms` : `network error (${describeCause(error)})`;
    throw new ProviderHttpError(provider, `${what} failed: ${reason}`, { cause: error });
  }

  let body: unknown = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = text.slice(0, MAX_ERROR_BODY);
  }
  if (!response.ok) {
    throw new ProviderHttpError(provider, `${what} failed: HTTP ${response.status}`, { status: response.status, body });
  }
  if (typeof body !== 'object' || body === null) {
    throw new ProviderHttpError(provider, `${what} answered ${response.status} without a JSON object`, {
      status: response.status,
      body,
    });
  }
  return { status: response.status, body };
}

/** fetch wraps the socket error in `cause`; its code (ECONNREFUSED, ENOTFOUND) is what an operator needs. */
function describeCause(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause && typeof cause === 'object' && 'code' in cause && typeof cause.code === 'string') return cause.code;
  if (cause instanceof Error) return cause.message;
  return error instanceof Error ? error.message : String(error);
}

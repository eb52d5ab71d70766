import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { messages } from '@terrafund/contracts';
import { paths } from '@/config/paths';
import { errorMessage, isApiError } from './api-client';
import { clearSession } from './auth-storage';

/** What a query or mutation may tell the global error handler about itself (`meta`). */
export type RequestMeta = {
  /** The caller shows its own message for a failure (a form with field errors and its own toast). */
  skipGlobalToast?: boolean;
  /** A 401 here is not an expired session: the start-up profile check handles it itself (docs/product.md §2.7 The session in the browser). */
  skipSessionExpiry?: boolean;
  /**
   * The screen's own words for its failure (docs/product.md §10 Messages: "Failed to load users."), toasted instead of
   * the server's message; a function may still prefer the server's message ("... or the server's message").
   */
  errorToast?: string | ((error: unknown) => string);
};

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: RequestMeta;
    mutationMeta: RequestMeta;
  }
}

/** A message to toast after a full-page navigation, which would otherwise wipe it. */
const FLASH_KEY = 'flash';

function expireSession() {
  clearSession();
  try {
    sessionStorage.setItem(FLASH_KEY, messages.toasts.sessionExpired);
  } catch {
    toast.error(messages.toasts.sessionExpired, { id: 'session-expired' });
  }
  // The whole page is reloaded so that nothing of the old session survives in memory (docs/product.md §2.7 The session in the browser).
  window.location.assign(paths.login.getHref());
}

/** Toasts the message left by `expireSession` before the reload, once. */
export function showFlashMessage() {
  let message: string | null = null;
  try {
    message = sessionStorage.getItem(FLASH_KEY);
    sessionStorage.removeItem(FLASH_KEY);
  } catch {
    return;
  }
  if (message) toast.error(message, { id: 'flash' });
}

/**
 * The one place where failures reach the user (docs/product.md §2.7 The session in the browser, Global): any 401 ends the session and
 * sends the whole page to /login; any other failure toasts the server's message, or a generic one.
 * The error still reaches the caller.
 */
export function handleGlobalError(error: unknown, meta: RequestMeta | undefined) {
  if (isApiError(error) && error.status === 401 && !meta?.skipSessionExpiry) {
    expireSession();
    return;
  }
  if (isApiError(error) && error.code === 'TWO_FACTOR_REQUIRED') {
    // An admin without two-factor sign-in while REQUIRE_ADMIN_2FA is on: to the setup, once.
    toast.error(error.serverMessage ?? messages.twoFactor.required, { id: 'two-factor-required' });
    if (window.location.pathname !== paths.profileSecurity.path) window.location.assign(paths.profileSecurity.getHref());
    return;
  }
  if (meta?.skipGlobalToast) return;
  const own = meta?.errorToast;
  const message = typeof own === 'function' ? own(error) : (own ?? errorMessage(error, messages.toasts.genericError));
  // The id folds the same failure from several queries into one toast.
  toast.error(message, { id: `error:${message}` });
}

export function createQueryClient() {
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => handleGlobalError(error, query.meta) }),
    mutationCache: new MutationCache({ onError: (error, _variables, _context, mutation) => handleGlobalError(error, mutation.meta) }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        // A 4xx answer will not change by asking again; a dropped connection or a 5xx might.
        retry: (failureCount, error) => !(isApiError(error) && error.status >= 400 && error.status < 500) && failureCount < 2,
      },
      mutations: { retry: false },
    },
  });
}

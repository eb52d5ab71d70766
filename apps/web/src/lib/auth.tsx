import { createContext, useCallback, useContext, useDeferredValue, useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { AuthSuccess, MessageResponse, User } from '@terrafund/contracts';
import { paths } from '@/config/paths';
import { api } from './api-client';
import { clearSession, getSessionSnapshot, saveSession, saveUser, subscribeToSession, type SessionSnapshot } from './auth-storage';
import { queryKeys } from './query-keys';

/**
 * The signed-in user, shared by every feature (docs/product.md §2.7 The session in the browser, Authentication): loading while the
 * stored token is checked against GET /users/profile, then authenticated or unauthenticated.
 */

export const getProfile = () => api.get<User>('/users/profile');

export const profileQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.profile(),
    queryFn: async () => {
      const user = await getProfile();
      saveUser(user);
      return user;
    },
  });

/**
 * The start-up check of a stored session: asked once (a refusal is the answer, not a glitch to retry), kept for
 * five minutes, and its failure handled by AuthProvider itself rather than as an expired session. main.tsx may
 * run it before the first draw (app/startup-data.ts); AuthProvider then finds its answer in the cache.
 */
export const startupProfileQueryOptions = () =>
  queryOptions({
    ...profileQueryOptions(),
    retry: false,
    // A refusal found in the cache (main.tsx asked before the first draw) is the answer, not asked again.
    retryOnMount: false,
    staleTime: 5 * 60_000,
    // The start-up check handles its own failure below; a 401 here is not shown as "Session expired".
    meta: { skipGlobalToast: true, skipSessionExpiry: true },
  });

export type AuthState =
  | { status: 'loading'; user: null }
  | { status: 'authenticated'; user: User }
  /** `signedOut`: the user just signed out here, rather than never having had, or having lost, a session. */
  | { status: 'unauthenticated'; user: null; signedOut: boolean; leaveTo?: string };

const AuthContext = createContext<AuthState | null>(null);

const noSession: SessionSnapshot = { token: null, signedOut: false };

export function AuthProvider({ children }: { children: ReactNode }) {
  const { token, signedOut, leaveTo } = useSyncExternalStore(subscribeToSession, getSessionSnapshot, () => noSession);
  const profile = useQuery({ ...startupProfileQueryOptions(), enabled: token !== null });

  const startupFailed = token !== null && profile.isError && profile.data === undefined;
  useEffect(() => {
    if (!startupFailed) return;
    // A stored token the server no longer accepts is dropped (docs/product.md §2.7 The session in the browser); a later refresh failure is only logged.
    console.error('Could not restore the session', profile.error);
    clearSession();
  }, [startupFailed, profile.error]);

  useEffect(() => {
    if (token !== null && profile.isError && profile.data !== undefined) console.error('Could not refresh the profile', profile.error);
  }, [token, profile.isError, profile.data, profile.error]);

  const state = useMemo<AuthState>(() => {
    if (token === null || startupFailed) return { status: 'unauthenticated', user: null, signedOut, ...(leaveTo ? { leaveTo } : {}) };
    if (profile.data) return { status: 'authenticated', user: profile.data };
    return { status: 'loading', user: null };
  }, [token, signedOut, leaveTo, startupFailed, profile.data]);

  // The end of the start-up check draws the whole signed-in screen. The query's store update would have React
  // draw it in one piece, holding the main thread for hundreds of milliseconds on a slow phone; the loading
  // indicator stays a moment longer instead and the screen is drawn as a transition, in slices between which the
  // browser stays responsive (issue 17: Total Blocking Time). Every other change of state applies at once.
  const previous = useDeferredValue(state);
  const shown = previous.status === 'loading' && state.status === 'authenticated' ? previous : state;

  return <AuthContext.Provider value={shown}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const state = useContext(AuthContext);
  if (!state) throw new Error('useAuth must be used inside <AuthProvider>');
  return state;
}

/** The signed-in user, for screens that only render behind the sign-in guard. */
export function useUser(): User {
  const auth = useAuth();
  if (auth.status !== 'authenticated') throw new Error('useUser needs a signed-in user');
  return auth.user;
}

/** Stores a fresh session (login or e-mail verification) and makes its user the current one. */
export function useStartSession() {
  const queryClient = useQueryClient();
  return useCallback(
    ({ token, user }: AuthSuccess, remember: boolean) => {
      // The user first, so the app never sees a token without its user and fetches the profile again.
      queryClient.setQueryData(queryKeys.profile(), user);
      saveSession(token, user, remember);
    },
    [queryClient],
  );
}

/** Ends the server session (its failure is ignored), forgets everything about the user, goes to /login. */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(async () => {
    try {
      await api.post<MessageResponse>('/users/logout');
    } catch {
      // The session ends here whatever the server says.
    }
    // Marked as signed out, so the guard of the page being left does not remember it for the next sign-in.
    clearSession({ signedOut: true });
    queryClient.clear();
    await navigate(paths.login.getHref(), { replace: true });
  }, [queryClient, navigate]);
}

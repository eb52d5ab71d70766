import { STORAGE_KEYS, type User } from '@terrafund/contracts';

/**
 * Where the session lives in the browser (docs/product.md §9.4 Shapes: keys "token" and "user").
 * Remember-me ticked keeps it in localStorage; unticked, in sessionStorage, so it ends with the
 * browser session (docs/product.md §3.7 Sessions). Reads look in both.
 */

const listeners = new Set<() => void>();

/**
 * What React renders from: the token, and whether the session just ended because the user signed out
 * (as opposed to never having one, or losing it), so guards know not to remember the page being left.
 */
export type SessionSnapshot = {
  token: string | null;
  signedOut: boolean;
  /** Where the page being left sends the user who signed out, instead of /login (the landing page, after closing). */
  leaveTo?: string;
};

let snapshot: SessionSnapshot = { token: null, signedOut: false };

function storages(): Storage[] {
  const found: Storage[] = [];
  try {
    found.push(window.localStorage);
  } catch {
    /* unavailable */
  }
  try {
    found.push(window.sessionStorage);
  } catch {
    /* unavailable */
  }
  return found;
}

function read(key: string): { value: string; storage: Storage } | null {
  for (const storage of storages()) {
    try {
      const value = storage.getItem(key);
      if (value !== null) return { value, storage };
    } catch {
      /* unavailable */
    }
  }
  return null;
}

function removeEverywhere(key: string) {
  for (const storage of storages()) {
    try {
      storage.removeItem(key);
    } catch {
      /* unavailable */
    }
  }
}

function notify() {
  listeners.forEach((listener) => listener());
}

export function getToken(): string | null {
  return read(STORAGE_KEYS.token)?.value ?? null;
}

export function getStoredUser(): User | null {
  const stored = read(STORAGE_KEYS.user);
  if (!stored) return null;
  try {
    return JSON.parse(stored.value) as User;
  } catch {
    return null;
  }
}

/** The current snapshot; the same object until the session changes, as useSyncExternalStore requires. */
export function getSessionSnapshot(): SessionSnapshot {
  const token = getToken();
  // Changed without saveSession/clearSession: another tab, or storage edited by hand.
  if (token !== snapshot.token) snapshot = { token, signedOut: false };
  return snapshot;
}

export function saveSession(token: string, user: User, remember: boolean) {
  removeEverywhere(STORAGE_KEYS.token);
  removeEverywhere(STORAGE_KEYS.user);
  try {
    const storage = remember ? window.localStorage : window.sessionStorage;
    storage.setItem(STORAGE_KEYS.token, token);
    storage.setItem(STORAGE_KEYS.user, JSON.stringify(user));
  } catch {
    /* unavailable: the session then lasts as long as this page */
  }
  snapshot = { token: getToken(), signedOut: false };
  notify();
}

/** Refreshes the stored user next to the token, wherever the token is kept. */
export function saveUser(user: User) {
  const storage = read(STORAGE_KEYS.token)?.storage;
  if (!storage) return;
  try {
    storage.setItem(STORAGE_KEYS.user, JSON.stringify(user));
  } catch {
    /* unavailable */
  }
}

export function clearSession({ signedOut = false, leaveTo }: { signedOut?: boolean; leaveTo?: string } = {}) {
  removeEverywhere(STORAGE_KEYS.token);
  removeEverywhere(STORAGE_KEYS.user);
  snapshot = { token: null, signedOut, ...(leaveTo ? { leaveTo } : {}) };
  notify();
}

/** Calls back when the session changes here or, through localStorage, in another tab. */
export function subscribeToSession(listener: () => void) {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === STORAGE_KEYS.token) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

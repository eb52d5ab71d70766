import type { QueryClient } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, type InitialEntry } from 'react-router';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import { STORAGE_KEYS, type User } from '@terrafund/contracts';
import { LANGUAGE_STORAGE_KEY, type Language } from '@terrafund/contracts/i18n';
import { i18n, loadLanguage } from '@/lib/i18n';
import { AppProvider } from '@/app/provider';
import { routes } from '@/app/router';
import { createQueryClient } from '@/lib/query-client';
import { reportUnanswered } from './test-guards';

export { expectConsoleError } from './test-guards';

/** The tests of the enclosing describe run with the app in `language`, as a visitor who chose it; English after. */
export function speaking(language: Language) {
  beforeEach(async () => {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
    await loadLanguage(language);
    await i18n.changeLanguage(language);
  });
  afterEach(() => i18n.changeLanguage('en'));
}

/**
 * The files the enclosing describe's tests save: each click on a download link (lib/download) is caught
 * instead of followed, and the link lands in the returned list, emptied before each test; object URLs read
 * `blobUrl`.
 */
export function captureDownloads(blobUrl: string): HTMLAnchorElement[] {
  const clicked: HTMLAnchorElement[] = [];
  beforeEach(() => {
    clicked.length = 0;
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => blobUrl), revokeObjectURL: vi.fn() }));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
  });
  afterEach(() => vi.restoreAllMocks());
  return clicked;
}

type Reply = { status?: number; body?: unknown; headers?: Record<string, string> };
type Handler = (body: unknown, request: { url: string; method: string; headers: Headers }) => Reply | Promise<Reply>;

/**
 * Answers the app's calls to the API from a table keyed "METHOD /path" (without /api), the way the
 * server would; anything not in the table answers 404 and fails the test (a test that means a 404 says so
 * with a handler). The app itself runs unmocked.
 */
export function mockApi(handlers: Record<string, Handler>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    const key = `${method} ${url.pathname.replace(/^\/api/, '')}`;
    const handler = handlers[key];
    if (!handler) reportUnanswered(key);
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    const reply: Reply = handler
      ? await handler(body, { url: url.toString(), method, headers: new Headers(init.headers) })
      : { status: 404, body: { message: `Route ${key} not found`, code: 'NOT_FOUND' } };
    return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
      status: reply.status ?? 200,
      headers: { 'Content-Type': 'application/json', ...reply.headers },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The calls the app made to one endpoint, with their JSON bodies. */
export function callsTo(fetchMock: ReturnType<typeof mockApi>, method: string, path: string) {
  return fetchMock.mock.calls
    .filter(([input, init]) => (init?.method ?? 'GET') === method && new URL(String(input), 'http://localhost').pathname === `/api${path}`)
    .map(([, init]) => (typeof init?.body === 'string' ? JSON.parse(init.body) : undefined));
}

/**
 * An answer that never comes: the screen that asked stays loading. For the pages a test only passes through
 * (the dashboard after signing in), whose own data is another test's subject.
 */
export const neverAnswered: Handler = () => new Promise<Reply>(() => {});

/** The requests of pages tests pass through, left loading. */
export const pendingPages = {
  dashboard: {
    'GET /users/dashboard': neverAnswered,
    'GET /users/investment-performance': neverAnswered,
    'GET /projects': neverAnswered,
  },
  adminDashboard: {
    'GET /admin/dashboard/stats': neverAnswered,
    'GET /admin/dashboard/transactions': neverAnswered,
    'GET /admin/payments/review': neverAnswered,
  },
  wallet: {
    'GET /plans': neverAnswered,
    'GET /config': neverAnswered,
    'GET /payments': neverAnswered,
    'GET /transactions': neverAnswered,
  },
  profile: {
    'GET /users/sessions': neverAnswered,
    'GET /users/notification-preferences': neverAnswered,
    'GET /users/data-export': neverAnswered,
    'GET /users/withdrawal-addresses': neverAnswered,
  },
  landing: {
    'GET /config': neverAnswered,
  },
} satisfies Record<string, Record<string, Handler>>;

/** What the signed-in layout itself asks on every page (the bell's notifications): nothing new, unless a test says otherwise. */
export const layoutHandlers: Record<string, Handler> = {
  'GET /notifications': () => ({ body: { items: [], unreadCount: 0, nextCursor: null } }),
};

/** What the app asks once a sign-in lands on a page: the profile, the layout's own calls, and the dashboard's, left loading. */
export const afterSignIn = (user: User): Record<string, Handler> => ({
  ...layoutHandlers,
  ...pendingPages.dashboard,
  'GET /users/profile': () => ({ body: user }),
});

/** The query strings of the GET calls the app made to one path. */
export function queriesTo(fetchMock: ReturnType<typeof mockApi>, path: string) {
  return fetchMock.mock.calls
    .map(([input, init]) => ({ url: new URL(String(input), 'http://localhost'), method: init?.method ?? 'GET' }))
    .filter(({ url, method }) => method === 'GET' && url.pathname === `/api${path}`)
    .map(({ url }) => Object.fromEntries(url.searchParams));
}

/** Signs a user in the way a previous visit would have: a stored token the profile call accepts. */
export function signIn(user: User, handlers: Record<string, Handler> = {}) {
  localStorage.setItem(STORAGE_KEYS.token, 'test-token');
  localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(user));
  return mockApi({ ...layoutHandlers, 'GET /users/profile': () => ({ body: user }), ...handlers });
}

/** Renders the whole app (providers, route table, guards) at one address, in memory. */
export function renderApp(
  initialEntry: InitialEntry = '/',
  { fakeTimers = false, queryClient = createQueryClient() }: { fakeTimers?: boolean; queryClient?: QueryClient } = {},
) {
  const router = createMemoryRouter(routes, { initialEntries: [initialEntry] });
  const user = userEvent.setup(fakeTimers ? { advanceTimers: vi.advanceTimersByTime } : {});
  const view = render(
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...view, router, user, queryClient };
}

/** Waits for a toast (react-hot-toast renders each as a status message) with this text. */
export async function expectToast(text: string) {
  await waitFor(() => {
    const toasts = screen.queryAllByRole('status').filter((element) => element.getAttribute('aria-live') === 'polite');
    expect(toasts.map((element) => element.textContent)).toContain(text);
  });
}

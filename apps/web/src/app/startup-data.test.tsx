import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Dashboard } from '@terrafund/contracts';
import { buildProject, buildUser } from '@/testing/builders';
import { renderApp, signIn } from '@/testing/test-utils';
import { createQueryClient } from '@/lib/query-client';
import { earlyRequests, loadStartupData } from './startup-data';
import { queryKeys } from '@/lib/query-keys';

const member = buildUser({ kycStatus: 'approved', kycVerified: true, membershipLevel: 'gold' });
const dashboard: Dashboard = { totalAssets: 2612.5, walletBalance: 1234.56, membership: 'gold', nextPayout: null, currentMembership: null };
const project = buildProject({ title: 'Harbour Lofts' });

/** The server's answers to the dashboard's own requests, when it asks. */
const dashboardHandlers = {
  'GET /users/dashboard': () => ({ body: dashboard }),
  'GET /users/investment-performance': () => ({ body: [] }),
  'GET /projects': () => ({ body: [project] }),
};

/** What index.html would have sent for the dashboard's page, answered, for `token`. */
function earlyAnswers(token: string) {
  const bodies: Record<string, unknown> = {
    '/api/users/profile': member,
    '/api/users/dashboard': dashboard,
    '/api/users/investment-performance?period=1M': [],
    '/api/projects': [project],
  };
  window.__early = Object.fromEntries(
    ['/api/users/profile', ...earlyRequests('/dashboard')].map((url) => [
      url,
      { token, response: Promise.resolve(new Response(JSON.stringify(bodies[url]), { headers: { 'content-type': 'application/json' } })) },
    ]),
  );
}

const asked = (fetchMock: ReturnType<typeof signIn>) =>
  fetchMock.mock.calls.map(([input]) => new URL(String(input), 'http://localhost')).map((url) => url.pathname + url.search);

describe('start-up data', { timeout: 20_000 }, () => {
  afterEach(() => {
    delete window.__early;
  });

  it('the dashboard is drawn from the answers its page asked for, without asking again', async () => {
    const fetchMock = signIn(member, dashboardHandlers);
    earlyAnswers('test-token');
    const queryClient = createQueryClient();

    await loadStartupData(queryClient, '/dashboard');
    expect(window.__early).toEqual({});
    renderApp('/dashboard', { queryClient });

    // Drawn from the cache once the screen's module has loaded: no skeletons, no request of its own.
    expect(await screen.findByText('$2,612.50', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(await screen.findByText('Harbour Lofts')).toBeInTheDocument();
    expect(asked(fetchMock).filter((url) => url !== '/api/notifications')).toEqual([]);
  });

  it('answers fetched with another token are not used, and are asked again', async () => {
    const fetchMock = signIn(member, dashboardHandlers);
    earlyAnswers('a-token-since-replaced');

    await loadStartupData(createQueryClient(), '/dashboard');
    expect(asked(fetchMock).sort()).toEqual(['/api/projects', '/api/users/dashboard', '/api/users/investment-performance?period=1M', '/api/users/profile']);
  });

  it('a session the server refuses costs one request: the figures of the screen are not asked for', async () => {
    const fetchMock = signIn(member, { 'GET /users/profile': () => ({ status: 401, body: { message: 'Session expired', code: 'UNAUTHENTICATED' } }) });
    const queryClient = createQueryClient();
    await loadStartupData(queryClient, '/dashboard');
    expect(asked(fetchMock)).toEqual(['/api/users/profile']);
    expect(queryClient.getQueryState(queryKeys.dashboard())).toBeUndefined();
  });

  it('without a stored session, nothing is asked', async () => {
    const fetchMock = signIn(member);
    localStorage.clear();
    await loadStartupData(createQueryClient(), '/dashboard');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('a screen without start-up data asks only for the profile', async () => {
    const fetchMock = signIn(member);
    await loadStartupData(createQueryClient(), '/profile');
    expect(asked(fetchMock)).toEqual(['/api/users/profile']);
    expect(earlyRequests('/profile')).toEqual([]);
  });
});

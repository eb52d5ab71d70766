import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Dashboard, ProjectionPoint } from '@terrafund/contracts';
import { buildUser, endedMembership } from '@/testing/builders';
import { expectConsoleError, pendingPages, renderApp, signIn } from '@/testing/test-utils';

const member = buildUser({ kycStatus: 'approved', kycVerified: true, membershipLevel: 'gold' });

function buildDashboard(overrides: Partial<Dashboard> = {}): Dashboard {
  return {
    totalAssets: 2612.5,
    walletBalance: 1234.56,
    membership: 'gold',
    nextPayout: { amount: 10, time: new Date(Date.now() + (3 * 3600 + 5 * 60 + 10) * 1000).toISOString(), remainingTime: 11_110 },
    currentMembership: null,
    ...overrides,
  };
}

const points: ProjectionPoint[] = [
  { date: '2026-03-02', value: 2510 },
  { date: '2026-03-03', value: 2520 },
  { date: '2026-03-04', value: 2530 },
];

function periodsRequested(fetchMock: ReturnType<typeof signIn>) {
  return fetchMock.mock.calls
    .map(([input]) => new URL(String(input), 'http://localhost'))
    .filter((url) => url.pathname === '/api/users/investment-performance')
    .map((url) => url.searchParams.get('period'));
}

function openDashboard(dashboard: () => Dashboard, performance: ProjectionPoint[] = points, options?: { fakeTimers?: boolean }) {
  const fetchMock = signIn(member, {
    ...pendingPages.wallet,
    'GET /users/dashboard': () => ({ body: dashboard() }),
    'GET /users/investment-performance': () => ({ body: performance }),
    'GET /projects': () => ({ body: [] }),
  });
  return { ...renderApp('/dashboard', options), fetchMock };
}

const card = (title: string) => screen.getByRole('group', { name: title });

describe('member dashboard', { timeout: 20_000 }, () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows Total Assets with the membership, Wallet Balance and Next Payout in USD', async () => {
    openDashboard(() => buildDashboard());

    await screen.findByText('$2,612.50', {}, { timeout: 5000 });
    expect(within(card('Total Assets')).getByText('GOLD membership')).toBeInTheDocument();
    expect(within(card('Wallet Balance')).getByText('$1,234.56')).toBeInTheDocument();
    expect(within(card('Wallet Balance')).getByText('Available for withdrawal')).toBeInTheDocument();
    expect(within(card('Next Payout')).getByText('$10.00')).toBeInTheDocument();
    expect(within(card('Next Payout')).getByRole('time')).toHaveTextContent(/^03:05:(10|09)$/);
    // The greeting, the KYC notice and the quick links stay.
    expect(screen.getByRole('heading', { name: 'Welcome back, Ada Lovelace' })).toBeInTheDocument();
    expect(screen.getByText('Your account is verified')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Get started' })).toBeInTheDocument();
  });

  it('counts the payout down every second and then says the payout is processing', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    openDashboard(() => buildDashboard({ nextPayout: { amount: 10, time: new Date(Date.now() + 65_000).toISOString(), remainingTime: 65 } }), points, {
      fakeTimers: true,
    });

    const time = await within(await screen.findByRole('group', { name: 'Next Payout' }, { timeout: 5000 })).findByRole('time');
    expect(time).toHaveTextContent(/^00:01:0[45]$/);

    act(() => vi.advanceTimersByTime(1000));
    expect(within(card('Next Payout')).getByRole('time')).toHaveTextContent(/^00:01:0[34]$/);

    act(() => vi.advanceTimersByTime(60_000));
    expect(within(card('Next Payout')).getByRole('time')).toHaveTextContent(/^00:00:0[34]$/);

    act(() => vi.advanceTimersByTime(5000));
    expect(within(card('Next Payout')).getByText('Payout processing...')).toBeInTheDocument();
    expect(within(card('Next Payout')).queryByRole('time')).not.toBeInTheDocument();
  });

  it('without a membership: no membership on the cards, a way to choose a plan, and no projection', async () => {
    const { user, router } = openDashboard(() => buildDashboard({ totalAssets: 0, walletBalance: 0, membership: null, nextPayout: null }), []);

    await screen.findByText('No projection data available', {}, { timeout: 5000 });
    // The cards are drawn as a transition of their own once the dashboard's answer is in.
    await screen.findByRole('group', { name: 'Total Assets' });
    expect(within(card('Total Assets')).getByText('$0.00')).toBeInTheDocument();
    expect(within(card('Total Assets')).getByText('No active membership')).toBeInTheDocument();
    expect(within(card('Next Payout')).getByText(/No active membership/)).toBeInTheDocument();
    expect(within(card('Next Payout')).queryByRole('time')).not.toBeInTheDocument();

    await user.click(within(card('Next Payout')).getByRole('link', { name: 'Choose a plan' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/wallet'));
  });

  it('after the membership ended: the countdown says so with its end day, Total Assets without the pack, a way to a new pack', async () => {
    const { user, router } = openDashboard(
      () =>
        buildDashboard({
          totalAssets: 7800,
          walletBalance: 7800,
          membership: null,
          nextPayout: null,
          currentMembership: endedMembership,
        }),
      [],
    );

    await screen.findByText('No projection data available', {}, { timeout: 5000 });
    // The cards are drawn as a transition of their own once the dashboard's answer is in.
    await screen.findByRole('group', { name: 'Total Assets' });
    expect(within(card('Total Assets')).getByText('GOLD membership ended')).toBeInTheDocument();
    const payout = card('Next Payout');
    expect(within(payout).getByText('$0.00')).toBeInTheDocument();
    expect(within(payout).getByText(/Your membership has ended \(Jan 05, 2029\)/)).toBeInTheDocument();
    expect(within(payout).queryByRole('time')).not.toBeInTheDocument();

    await user.click(within(payout).getByRole('link', { name: 'Buy a new pack' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/wallet'));
  });

  it('asks for 1M first and for each range chosen, marking the pressed one', async () => {
    const { user, fetchMock } = openDashboard(() => buildDashboard());

    await screen.findByRole('heading', { name: 'Projected Investment Growth' }, { timeout: 5000 });
    const ranges = within(screen.getByRole('group', { name: 'Projection range' }));
    expect(ranges.getAllByRole('button').map((b) => b.textContent)).toEqual(['1W', '1M', '3M', '1Y', '3Y']);
    expect(ranges.getByRole('button', { name: '1M' })).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => expect(periodsRequested(fetchMock)).toEqual(['1M']));
    await screen.findByRole('img', { name: 'Projected Value chart' });

    await user.click(ranges.getByRole('button', { name: '1Y' }));
    expect(ranges.getByRole('button', { name: '1Y' })).toHaveAttribute('aria-pressed', 'true');
    expect(ranges.getByRole('button', { name: '1M' })).toHaveAttribute('aria-pressed', 'false');
    await waitFor(() => expect(periodsRequested(fetchMock)).toEqual(['1M', '1Y']));

    await user.click(ranges.getByRole('button', { name: '1W' }));
    await user.click(ranges.getByRole('button', { name: '3Y' }));
    await user.click(ranges.getByRole('button', { name: '3M' }));
    await waitFor(() => expect(periodsRequested(fetchMock)).toEqual(['1M', '1Y', '1W', '3Y', '3M']));
  });

  it('logs a failed load without telling the member, and keeps the rest of the page', async () => {
    expectConsoleError('Failed to load dashboard data');
    const logged = vi.spyOn(console, 'error');
    signIn(member, {
      'GET /users/dashboard': () => ({ status: 404, body: { message: 'User not found', code: 'NOT_FOUND' } }),
      'GET /users/investment-performance': () => ({ body: [] }),
      'GET /projects': () => ({ body: [] }),
    });
    renderApp('/dashboard');

    await waitFor(() => expect(logged).toHaveBeenCalledWith('Failed to load dashboard data', expect.anything()), { timeout: 5000 });
    expect(screen.queryByText('User not found')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Welcome back, Ada Lovelace' })).toBeInTheDocument();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '@terrafund/contracts';
import { buildUser } from '@/testing/builders';
import { callsTo, neverAnswered, pendingPages, renderApp, signIn } from '@/testing/test-utils';

describe('app layout', () => {
  it('shows a member Dashboard, Plan and KYC Verification, highlighting the current one', async () => {
    signIn(buildUser(), pendingPages.wallet);
    renderApp('/wallet/payment/success');

    const nav = await screen.findByRole('navigation', { name: 'Main' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(['Dashboard', 'Plan', 'KYC Verification']);
    // /wallet/payment/success lies below /wallet.
    expect(within(nav).getByRole('link', { name: 'Plan' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current');
  });

  it('shows an admin only the Admin group', async () => {
    signIn(buildUser({ role: 'admin' }), { 'GET /admin/users/42': neverAnswered });
    renderApp('/admin/users/42');

    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(nav).getAllByRole('link').map((link) => link.textContent)).toEqual([
      'Admin Dashboard',
      'Manage Users',
      'Transactions',
      'Projects',
      'Audit log',
      'Mail',
    ]);
    expect(within(nav).getByRole('link', { name: 'Manage Users' })).toHaveAttribute('aria-current', 'page');
  });

  it('opens the small-screen menu from the top bar and closes it with its button', async () => {
    signIn(buildUser(), pendingPages.dashboard);
    const { user } = renderApp('/dashboard');

    // The first visit loads the dashboard's route module: give it time on a busy machine.
    await user.click(await screen.findByRole('button', { name: 'Open menu' }, { timeout: 5000 }));
    const drawer = screen.getByRole('dialog', { name: 'Menu' });
    expect(within(drawer).getByRole('button', { name: 'Close menu' })).toHaveFocus();

    await user.click(within(drawer).getByRole('button', { name: 'Close menu' }));
    expect(screen.queryByRole('dialog', { name: 'Menu' })).not.toBeInTheDocument();
  });

  it('opens the account menu on click, and closes it on Escape, outside clicks and a choice', async () => {
    signIn(buildUser(), { ...pendingPages.dashboard, ...pendingPages.profile });
    const { user, router } = renderApp('/dashboard');

    const trigger = await screen.findByRole('button', { name: 'Ada Lovelace' });
    expect(within(trigger).getByText('AL')).toBeInTheDocument();

    await user.click(trigger);
    expect(trigger).toHaveAttribute('aria-expanded', 'true');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('link', { name: 'Profile' })).not.toBeInTheDocument();

    await user.click(trigger);
    await user.click(screen.getByRole('heading', { name: 'Welcome back, Ada Lovelace' }));
    expect(screen.queryByRole('link', { name: 'Profile' })).not.toBeInTheDocument();

    await user.click(trigger);
    await user.click(screen.getByRole('link', { name: 'Profile' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    expect(screen.queryByRole('link', { name: 'Profile' })).not.toBeInTheDocument();
  });

  it('shows an empty notification list behind the bell', async () => {
    signIn(buildUser(), { ...pendingPages.dashboard, 'GET /notifications': () => ({ body: { items: [], unreadCount: 0, nextCursor: null } }) });
    const { user } = renderApp('/dashboard');

    await user.click(await screen.findByRole('button', { name: 'Notifications' }));
    expect(await screen.findByText('No notifications yet')).toBeInTheDocument();
  });

  it('signs out: ends the server session, forgets the user and goes to /login', async () => {
    const fetchMock = signIn(buildUser(), { ...pendingPages.wallet, 'POST /users/logout': () => ({ status: 500 }) });
    const { user, router } = renderApp('/wallet');

    await user.click(await screen.findByRole('button', { name: 'Ada Lovelace' }));
    await user.click(screen.getByRole('button', { name: 'Sign out' }));

    await screen.findByRole('heading', { name: 'Welcome back' });
    expect(router.state.location.pathname).toBe('/login');
    // Signing out is not an interrupted visit: the next sign-in starts at the dashboard, not /wallet.
    expect(router.state.location.state).toBeNull();
    expect(callsTo(fetchMock, 'POST', '/users/logout')).toHaveLength(1);
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.user)).toBeNull();
    // The server's failure to end the session is not the user's problem.
    expect(screen.queryByText('An error occurred. Please try again.')).not.toBeInTheDocument();
  });
});

import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '@terrafund/contracts';
import { buildUser } from '@/testing/builders';
import { afterSignIn, expectConsoleError, layoutHandlers, mockApi, pendingPages, renderApp, signIn } from '@/testing/test-utils';

describe('route guards', () => {
  // The first test imports its lazy route modules and the signed-in frame cold: seconds on a busy machine.
  it('sends a visitor to /login, remembering the page, and back to it after signing in', async () => {
    mockApi({ ...afterSignIn(buildUser()), ...pendingPages.wallet, 'POST /users/login': () => ({ body: { token: 'tok', user: buildUser() } }) });
    const { user, router } = renderApp('/wallet?tab=deposit');

    await screen.findByRole('heading', { name: 'Welcome back' });
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.state).toMatchObject({ from: { pathname: '/wallet', search: '?tab=deposit' } });
    // The login page replaced the requested entry rather than stacking on it.
    expect(router.state.historyAction).toBe('REPLACE');

    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct-horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/wallet'));
    expect(router.state.location.search).toBe('?tab=deposit');
    expect(await screen.findByRole('heading', { level: 1, name: 'Choose New Plan' })).toBeInTheDocument();
  }, 15_000);

  it('shows a spinner while the stored session is checked, then the page', async () => {
    let answer: (value: Response) => void = () => {};
    const member = buildUser();
    localStorage.setItem(STORAGE_KEYS.token, 'stored');
    const fetchMock = mockApi({ ...layoutHandlers, ...pendingPages.dashboard });
    fetchMock.mockImplementationOnce(() => new Promise<Response>((resolve) => (answer = resolve)));
    renderApp('/dashboard');

    expect(await screen.findByRole('status')).toHaveTextContent('Loading');
    answer(new Response(JSON.stringify(member), { status: 200 }));
    expect(await screen.findByRole('heading', { name: 'Welcome back, Ada Lovelace' })).toBeInTheDocument();
    expect(fetchMock.mock.calls[0]![1]!.headers).toMatchObject({ Authorization: 'Bearer stored' });
  });

  it('drops a stored token the server refuses, logs it, and sends the visitor to /login', async () => {
    expectConsoleError('Could not restore the session');
    const log = vi.spyOn(console, 'error');
    localStorage.setItem(STORAGE_KEYS.token, 'expired');
    mockApi({ 'GET /users/profile': () => ({ status: 401, body: { message: 'Session expired. Please login again.', code: 'UNAUTHENTICATED' } }) });
    const { router } = renderApp('/kyc');

    await screen.findByRole('heading', { name: 'Welcome back' });
    expect(router.state.location.state).toMatchObject({ from: { pathname: '/kyc' } });
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(log).toHaveBeenCalledWith('Could not restore the session', expect.objectContaining({ status: 401 }));
    // The start-up check is not an expired session in use: no "Session expired" toast for it.
    expect(screen.queryByText('Session expired. Please login again.')).not.toBeInTheDocument();
  });

  it('sends a member who opens an admin page to /', async () => {
    signIn(buildUser({ role: 'user' }), pendingPages.landing);
    const { router } = renderApp('/admin/users');

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('lets an admin in, and /admin leads to the admin dashboard', async () => {
    signIn(buildUser({ role: 'admin' }), pendingPages.adminDashboard);
    const { router } = renderApp('/admin');

    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/dashboard');
  });

  it('sends a signed-in user away from /login to the dashboard', async () => {
    signIn(buildUser(), pendingPages.dashboard);
    const { router } = renderApp('/login');

    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('shows the payment result pages without a session', async () => {
    mockApi({});
    renderApp('/wallet/payment/timeout');

    expect(await screen.findByRole('heading', { name: 'Payment Timed Out' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
  });

  it('answers an unknown address with the error fallback', async () => {
    mockApi({});
    renderApp('/no/such/page');

    expect(await screen.findByRole('heading', { name: 'Unexpected Application Error!' })).toBeInTheDocument();
    expect(screen.getByText('404 Not Found')).toBeInTheDocument();
  });
});

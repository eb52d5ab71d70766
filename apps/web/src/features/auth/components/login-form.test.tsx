import { screen, waitFor } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '@terrafund/contracts';
import { buildUser } from '@/testing/builders';
import { afterSignIn, callsTo, expectToast, mockApi, renderApp } from '@/testing/test-utils';

async function openLogin() {
  const app = renderApp('/login');
  await screen.findByRole('heading', { name: 'Welcome back' });
  return app;
}

/** Types Ada's e-mail and `password`, ticks remember-me when asked, and presses Sign in. */
async function signIn(user: UserEvent, password: string, { rememberMe = false } = {}) {
  await user.type(screen.getByLabelText('Email'), 'ada@example.com');
  await user.type(screen.getByLabelText('Password'), password);
  if (rememberMe) await user.click(screen.getByLabelText('Remember me'));
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

/** Opens the login screen with the server refusing every sign-in with `body` (a 400), and signs in with `password`. */
async function signInRefused(body: object, password: string) {
  mockApi({ 'POST /users/login': () => ({ status: 400, body }) });
  const { user } = await openLogin();
  await signIn(user, password);
}

describe('login form', () => {
  it('asks for the e-mail and the password before calling the server', async () => {
    const fetchMock = mockApi({});
    const { user } = await openLogin();

    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Email is required');
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Password is required');
    expect(callsTo(fetchMock, 'POST', '/users/login')).toHaveLength(0);
  });

  it('rejects an address without the simple e-mail pattern', async () => {
    mockApi({});
    const { user } = await openLogin();

    await user.type(screen.getByLabelText('Email'), 'ada.example.com');
    await user.type(screen.getByLabelText('Password'), 'whatever1');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByText('Invalid email format')).toBeInTheDocument();
    expect(screen.queryByText('Password is required')).not.toBeInTheDocument();
  });

  it('puts a server message naming the e-mail under the e-mail field and toasts it', async () => {
    await signInRefused({ message: 'Invalid email or password', code: 'INVALID_CREDENTIALS' }, 'wrong-password');

    await waitFor(() => expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Invalid email or password'));
    // The message names both, so both fields carry it (docs/product.md §10 Messages), and the toast says it once more.
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Invalid email or password');
    await expectToast('Invalid email or password');
  });

  it('puts a server message naming only the password under the password field', async () => {
    await signInRefused({ message: 'Your password has expired', code: 'VALIDATION_ERROR' }, 'old-password');

    await waitFor(() => expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Your password has expired'));
    expect(screen.getByLabelText('Email')).not.toHaveAttribute('aria-invalid');
  });

  it('toasts "Invalid email or password" when the server gives no message', async () => {
    await signInRefused({}, 'wrong-password');

    await expectToast('Invalid email or password');
    expect(screen.getByLabelText('Email')).not.toHaveAttribute('aria-invalid');
  });

  it('keeps the session in localStorage when remember-me is ticked and goes to the dashboard', async () => {
    const member = buildUser();
    const fetchMock = mockApi({ ...afterSignIn(member), 'POST /users/login': () => ({ body: { token: 'tok-1', user: member } }) });
    const { user, router } = await openLogin();

    await signIn(user, 'correct-horse', { rememberMe: true });

    await expectToast('Login successful');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(callsTo(fetchMock, 'POST', '/users/login')).toEqual([{ email: 'ada@example.com', password: 'correct-horse', rememberMe: true }]);
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('tok-1');
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.user)!)).toEqual(member);
    expect(sessionStorage.getItem(STORAGE_KEYS.token)).toBeNull();
  });

  it('keeps the session in sessionStorage when remember-me is not ticked', async () => {
    mockApi({ ...afterSignIn(buildUser()), 'POST /users/login': () => ({ body: { token: 'tok-2', user: buildUser() } }) });
    const { user, router } = await openLogin();

    await signIn(user, 'correct-horse');

    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(sessionStorage.getItem(STORAGE_KEYS.token)).toBe('tok-2');
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
  });

  it('shows the e-mail code screen when the account still needs verification', async () => {
    mockApi({
      'POST /users/login': () => ({
        body: { requiresVerification: true, email: 'ada@example.com', message: 'Please verify your email' },
      }),
    });
    const { user } = await openLogin();

    await signIn(user, 'correct-horse');

    expect(await screen.findByRole('heading', { name: 'Verify your email' })).toBeInTheDocument();
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    expect(screen.queryByText('Login successful')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Back to login' }));
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
  });
});

import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { messages, STORAGE_KEYS } from '@terrafund/contracts';
import { buildUser } from '@/testing/builders';
import { afterSignIn, callsTo, expectToast, mockApi, renderApp } from '@/testing/test-utils';

const member = buildUser({ twoFactorEnabled: true });

async function passwordStep(handlers: Parameters<typeof mockApi>[0]) {
  const fetchMock = mockApi({
    'POST /users/login': () => ({ body: { twoFactorRequired: true, challenge: 'challenge-1' } }),
    ...afterSignIn(member),
    ...handlers,
  });
  const app = renderApp('/login');
  await screen.findByRole('heading', { name: 'Welcome back' });
  await app.user.type(screen.getByLabelText('Email'), 'ada@example.com');
  await app.user.type(screen.getByLabelText('Password'), 'correct horse battery');
  await app.user.click(screen.getByRole('button', { name: 'Sign in' }));
  await screen.findByRole('heading', { name: 'Two-factor authentication' });
  return { ...app, fetchMock };
}

describe('sign-in with two-factor authentication', { timeout: 20_000 }, () => {
  it('asks for the 6-digit code after the password, and signs in with it', async () => {
    const { user, fetchMock, router } = await passwordStep({
      'POST /users/login/2fa': () => ({ body: { token: 'session-token', user: member } }),
    });
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText(messages.twoFactor.codeRequired)).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/users/login/2fa')).toHaveLength(0);

    await user.type(screen.getByLabelText('Authentication code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/users/login/2fa')).toEqual([{ challenge: 'challenge-1', code: '123456' }]));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(sessionStorage.getItem(STORAGE_KEYS.token) ?? localStorage.getItem(STORAGE_KEYS.token)).toBe('session-token');
  });

  it('takes a recovery code instead, and shows a wrong code under the field', async () => {
    let calls = 0;
    const { user, fetchMock } = await passwordStep({
      'POST /users/login/2fa': () =>
        (calls += 1) === 1
          ? { status: 400, body: { message: messages.twoFactor.codeInvalid, code: 'VALIDATION_ERROR', fields: { code: messages.twoFactor.codeInvalid } } }
          : { body: { token: 'session-token', user: member } },
    });
    await user.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    await user.type(screen.getByLabelText('Recovery code'), 'abcde-fghjk');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(screen.getByLabelText('Recovery code')).toHaveAccessibleDescription(messages.twoFactor.codeInvalid));
    await user.type(screen.getByLabelText('Recovery code'), 'mnpqr-stuvw');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/users/login/2fa').map((b) => b.code)).toEqual(['abcde-fghjk', 'mnpqr-stuvw']));
  });

  it('goes back to the password when the attempt has ended (401), without ending any session', async () => {
    const { user } = await passwordStep({
      'POST /users/login/2fa': () => ({ status: 401, body: { message: messages.twoFactor.challengeEnded, code: 'UNAUTHENTICATED' } }),
    });
    await user.type(screen.getByLabelText('Authentication code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await expectToast(messages.twoFactor.challengeEnded);
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
  });
});

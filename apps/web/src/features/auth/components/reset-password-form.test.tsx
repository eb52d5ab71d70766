import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { messages } from '@terrafund/contracts';
import { callsTo, expectToast, mockApi, renderApp } from '@/testing/test-utils';

describe('reset password', () => {
  it('without a token shows "Invalid Reset Link" and a way to ask for a new one', async () => {
    mockApi({});
    const { user, router } = renderApp('/reset-password');

    expect(await screen.findByRole('heading', { name: 'Invalid Reset Link' })).toBeInTheDocument();
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: 'Request a new reset link' }));
    await screen.findByRole('heading', { name: 'Forgot your password?' });
    expect(router.state.location.pathname).toBe('/forgot-password');
  });

  it('checks the new password and its confirmation', async () => {
    const fetchMock = mockApi({});
    const { user } = renderApp('/reset-password?token=abc');

    await user.type(await screen.findByLabelText('New password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByLabelText('New password')).toHaveAccessibleDescription('Password must be at least 8 characters');
    expect(screen.getByLabelText('Confirm new password')).toHaveAccessibleDescription('Please confirm your password');

    await user.clear(screen.getByLabelText('New password'));
    await user.type(screen.getByLabelText('New password'), 'a-new-secret');
    await user.type(screen.getByLabelText('Confirm new password'), 'another-secret');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    await waitFor(() => expect(screen.getByLabelText('Confirm new password')).toHaveAccessibleDescription('Passwords do not match'));
    expect(callsTo(fetchMock, 'POST', '/users/reset-password')).toHaveLength(0);
  });

  it('toasts the server message for a used link', async () => {
    mockApi({
      'POST /users/reset-password': () => ({
        status: 400,
        body: { message: 'Invalid reset link. Please request a new password reset.', code: 'VALIDATION_ERROR' },
      }),
    });
    const { user } = renderApp('/reset-password?token=used');

    await user.type(await screen.findByLabelText('New password'), 'a-new-secret');
    await user.type(screen.getByLabelText('Confirm new password'), 'a-new-secret');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));

    await expectToast('Invalid reset link. Please request a new password reset.');
  });

  it('shows the server\'s refusal of a common password under the new password', async () => {
    mockApi({ 'POST /users/reset-password': () => ({ status: 400, body: { message: messages.validation.passwordTooCommon, code: 'VALIDATION_ERROR', fields: { newPassword: messages.validation.passwordTooCommon } } }) });
    const { user } = renderApp('/reset-password?token=abc');

    await user.type(await screen.findByLabelText('New password'), 'iloveyou');
    await user.type(screen.getByLabelText('Confirm new password'), 'iloveyou');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));

    await waitFor(() => expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(messages.validation.passwordTooCommon));
    await expectToast(messages.validation.passwordTooCommon);
  });

  it('sends the token with the new password, toasts, and goes to /login after 2 seconds', async () => {
    const fetchMock = mockApi({ 'POST /users/reset-password': () => ({ body: { message: 'Password reset' } }) });
    const { user, router } = renderApp('/reset-password?token=t%2Bk');

    await user.type(await screen.findByLabelText('New password'), 'a-new-secret');
    await user.type(screen.getByLabelText('Confirm new password'), 'a-new-secret');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));

    await expectToast('Password reset successfully! Redirecting to login...');
    expect(callsTo(fetchMock, 'POST', '/users/reset-password')).toEqual([{ token: 't+k', newPassword: 'a-new-secret' }]);
    expect(router.state.location.pathname).toBe('/reset-password');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), { timeout: 3000 });
  });
});

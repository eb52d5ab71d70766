import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { passwordStrengthProblem } from '@terrafund/contracts/password-strength';
import { callsTo, expectToast, mockApi, renderApp } from '@/testing/test-utils';

describe('reset password', { timeout: 20_000 }, () => {
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

  it.each(['Password123!', 'Passw0rd!', 'Qwerty123456!', 'Iloveyou1!'])('refuses "%s" without sending it, with the reason under the new password', async (password) => {
    const fetchMock = mockApi({});
    const { user } = renderApp('/reset-password?token=abc');

    await user.type(await screen.findByLabelText('New password'), password);
    await user.type(screen.getByLabelText('Confirm new password'), password);
    await user.click(screen.getByRole('button', { name: 'Reset password' }));

    const reason = passwordStrengthProblem(password);
    expect(reason).toEqual(expect.any(String));
    await waitFor(() => expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(reason!));
    expect(callsTo(fetchMock, 'POST', '/users/reset-password')).toHaveLength(0);
  });

  it('shows the server\'s refusal of a password under the new password (it also knows the owner\'s names)', async () => {
    const refusal = 'There should not be any personal or page related data. Add more words that are less common.';
    mockApi({ 'POST /users/reset-password': () => ({ status: 400, body: { message: refusal, code: 'VALIDATION_ERROR', fields: { newPassword: refusal } } }) });
    const { user } = renderApp('/reset-password?token=abc');

    await user.type(await screen.findByLabelText('New password'), 'a-new-secret');
    await user.type(screen.getByLabelText('Confirm new password'), 'a-new-secret');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));

    await waitFor(() => expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(refusal));
    await expectToast(refusal);
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

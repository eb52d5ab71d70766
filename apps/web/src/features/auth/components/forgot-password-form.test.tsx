import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { callsTo, expectToast, mockApi, renderApp } from '@/testing/test-utils';

describe('forgot password', () => {
  it('validates the address, then confirms the e-mail was sent', async () => {
    const fetchMock = mockApi({ 'POST /users/forgot-password': () => ({ body: { message: 'If the address exists...' } }) });
    const { user } = renderApp('/forgot-password');

    await user.click(await screen.findByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByLabelText('Email')).toHaveAccessibleDescription('Email is required');

    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));

    await expectToast('Password reset email sent successfully. Please check your email.');
    expect(screen.getByRole('heading', { name: 'Check your email' })).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/users/forgot-password')).toEqual([{ email: 'ada@example.com' }]);
  });

  it('toasts "Failed to send reset email" when the server gives no message', async () => {
    mockApi({ 'POST /users/forgot-password': () => ({ status: 502 }) });
    const { user } = renderApp('/forgot-password');

    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));

    await expectToast('Failed to send reset email');
  });
});

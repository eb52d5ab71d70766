import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { passwordStrengthProblem, personalInputs } from '@terrafund/contracts/password-strength';
import { callsTo, expectToast, mockApi, renderApp } from '@/testing/test-utils';

async function openRegister() {
  const app = renderApp('/register');
  await screen.findByRole('heading', { name: 'Create your account' });
  return app;
}

const submit = () => screen.getByRole('button', { name: 'Create account' });

/** Fills in Ada's details with `password` (confirmed), accepts the terms and presses Create account. */
async function registerAda(user: UserEvent, password = 'analytical-engine') {
  await user.type(screen.getByLabelText('First name'), 'Ada');
  await user.type(screen.getByLabelText('Last name'), 'Lovelace');
  await user.type(screen.getByLabelText('Email'), 'ada@example.com');
  await user.type(screen.getByLabelText('Password'), password);
  await user.type(screen.getByLabelText('Confirm password'), password);
  await user.click(screen.getByRole('checkbox'));
  await user.click(submit());
}

describe('registration form', { timeout: 20_000 }, () => {
  it('shows every required-field message, the terms one included, without calling the server', async () => {
    const fetchMock = mockApi({});
    const { user } = await openRegister();

    await user.click(submit());

    expect(await screen.findByLabelText('First name')).toHaveAccessibleDescription('Name is required');
    expect(screen.getByLabelText('Last name')).toHaveAccessibleDescription('Name is required');
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Email is required');
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Password is required');
    expect(screen.getByLabelText('Confirm password')).toHaveAccessibleDescription('Please confirm your password');
    expect(screen.getByRole('checkbox')).toHaveAccessibleDescription('You must agree to the terms and conditions');
    expect(screen.getByLabelText('Phone')).not.toHaveAttribute('aria-invalid');
    expect(callsTo(fetchMock, 'POST', '/users/register')).toHaveLength(0);
    // Focus goes to the first invalid field, which the screen reader then reads with its error (issue 17).
    expect(screen.getByLabelText('First name')).toHaveFocus();
  });

  it('checks name length, e-mail format, password length and the confirmation', async () => {
    mockApi({});
    const { user } = await openRegister();

    await user.type(screen.getByLabelText('First name'), 'A');
    await user.type(screen.getByLabelText('Last name'), 'L');
    await user.type(screen.getByLabelText('Email'), 'ada@example');
    await user.type(screen.getByLabelText('Password'), 'short');
    await user.type(screen.getByLabelText('Confirm password'), 'shorter');
    await user.click(submit());

    expect(await screen.findByLabelText('First name')).toHaveAccessibleDescription('Name must be at least 2 characters');
    expect(screen.getByLabelText('Last name')).toHaveAccessibleDescription('Name must be at least 2 characters');
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Invalid email format');
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Password must be at least 8 characters');

    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'long-enough-1');
    await user.click(submit());
    await waitFor(() => expect(screen.getByLabelText('Confirm password')).toHaveAccessibleDescription('Passwords do not match'));
  });

  it('registers, toasts and opens the e-mail code screen with a running resend countdown', async () => {
    const fetchMock = mockApi({
      'POST /users/register': (body) => ({
        status: 201,
        body: { requiresVerification: true, email: (body as { email: string }).email, message: 'Check your email' },
      }),
    });
    const { user } = await openRegister();

    await registerAda(user);

    expect(await screen.findByRole('heading', { name: 'Verify your email' })).toBeInTheDocument();
    await expectToast('Registration successful');
    expect(callsTo(fetchMock, 'POST', '/users/register')).toEqual([
      { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '', password: 'analytical-engine' },
    ]);
    expect(screen.getByRole('button', { name: /^Resend code in \d+s$/ })).toBeDisabled();
  });

  it('toasts the server message, or "Registration failed" without one', async () => {
    mockApi({ 'POST /users/register': () => ({ status: 500, body: 'oops' }) });
    const { user } = await openRegister();

    await registerAda(user);

    await expectToast('Registration failed');
  });

  it.each(['Password123!', 'Passw0rd!', 'Qwerty123456!', 'Iloveyou1!', 'iloveyou'])(
    'refuses "%s" without sending it, with the strength rule\'s reason under the password field',
    async (password) => {
      const fetchMock = mockApi({});
      const { user } = await openRegister();

      await registerAda(user, password);

      // The same rule and words the API applies (packages/contracts), with Ada's own names and address.
      const reason = passwordStrengthProblem(password, personalInputs({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' }));
      expect(reason).toEqual(expect.any(String));
      await waitFor(() => expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(reason!));
      expect(screen.getByLabelText('Password')).toHaveFocus();
      expect(callsTo(fetchMock, 'POST', '/users/register')).toHaveLength(0);
    },
  );

  it('shows the server\'s refusal of a password under the password field', async () => {
    const refusal = 'This is a commonly used password. Add more words that are less common.';
    mockApi({ 'POST /users/register': () => ({ status: 400, body: { message: refusal, code: 'VALIDATION_ERROR', fields: { password: refusal } } }) });
    const { user } = await openRegister();

    await registerAda(user);

    await waitFor(() => expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(refusal));
    await expectToast(refusal);
  });

  it('opens the terms without ticking the box', async () => {
    mockApi({});
    const { user } = await openRegister();

    await user.click(screen.getByRole('button', { name: 'terms and conditions' }));

    const dialog = await screen.findByRole('dialog', { name: 'Terms and Conditions' });
    expect(within(dialog).getByRole('heading', { name: /Governing Law/ })).toBeInTheDocument();
    expect(within(dialog).getByText(/State of New Jersey/)).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('checkbox')).not.toBeChecked();
  });
});

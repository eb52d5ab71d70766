import { useState } from 'react';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '@terrafund/contracts';
import { buildUser } from '@/testing/builders';
import { afterSignIn, callsTo, expectToast, mockApi, renderApp } from '@/testing/test-utils';
import { OtpInput } from './otp-input';

function Harness() {
  const [value, setValue] = useState('');
  return (
    <>
      <OtpInput value={value} onChange={setValue} />
      <output data-testid="value">{value}</output>
    </>
  );
}

const boxes = () => screen.getAllByRole('textbox');
const boxValues = () => boxes().map((box) => (box as HTMLInputElement).value);

/** The six boxes on screen, and a user to type in them. */
function renderBoxes() {
  const user = userEvent.setup();
  render(<Harness />);
  return user;
}

describe('OtpInput', () => {
  it('moves to the next box after each digit and ignores anything but digits', async () => {
    const user = renderBoxes();
    expect(boxes()).toHaveLength(6);
    expect(boxes()[0]).toHaveAttribute('autocomplete', 'one-time-code');
    expect(boxes()[0]).toHaveAttribute('inputmode', 'numeric');

    await user.click(boxes()[0]!);
    await user.keyboard('1a2');

    expect(boxValues()).toEqual(['1', '2', '', '', '', '']);
    expect(boxes()[2]).toHaveFocus();
  });

  it('goes back to the previous box on Backspace in an empty box, and arrows move', async () => {
    const user = renderBoxes();

    await user.click(boxes()[0]!);
    await user.keyboard('123');
    expect(boxes()[3]).toHaveFocus();

    await user.keyboard('{Backspace}');
    expect(boxes()[2]).toHaveFocus();
    expect(boxValues()).toEqual(['1', '2', '', '', '', '']);

    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(boxes()[0]).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(boxes()[1]).toHaveFocus();
  });

  it('fills all six boxes from a pasted code, whichever box it lands in', async () => {
    const user = renderBoxes();

    await user.click(boxes()[3]!);
    await user.paste('482 915');

    expect(boxValues()).toEqual(['4', '8', '2', '9', '1', '5']);
    expect(screen.getByTestId('value')).toHaveTextContent('482915');
    expect(boxes()[5]).toHaveFocus();
  });
});

async function openCodeScreen(handlers: Parameters<typeof mockApi>[0] = {}, options?: { fakeTimers?: boolean }) {
  const fetchMock = mockApi({
    'POST /users/login': () => ({ body: { requiresVerification: true, email: 'ada@example.com', message: 'Verify' } }),
    ...handlers,
  });
  const app = renderApp('/login', options);
  await app.user.type(await screen.findByLabelText('Email'), 'ada@example.com');
  await app.user.type(screen.getByLabelText('Password'), 'correct-horse');
  await app.user.click(screen.getByRole('button', { name: 'Sign in' }));
  await screen.findByRole('heading', { name: 'Verify your email' });
  return { ...app, fetchMock };
}

describe('e-mail code screen', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks for the complete 6-digit code before calling the server', async () => {
    const { user, fetchMock } = await openCodeScreen();

    await user.click(boxes()[0]!);
    await user.keyboard('123');
    await user.click(screen.getByRole('button', { name: 'Verify' }));

    expect(await screen.findByText('Please enter the complete 6-digit code')).toBeInTheDocument();
    expect(boxes()[0]).toHaveAttribute('aria-invalid', 'true');
    expect(callsTo(fetchMock, 'POST', '/users/verify-otp')).toHaveLength(0);
  });

  it('on a wrong code toasts the server message, empties the boxes and focuses the first', async () => {
    const { user } = await openCodeScreen({
      'POST /users/verify-otp': () => ({ status: 400, body: { message: 'Invalid or expired verification code', code: 'VALIDATION_ERROR' } }),
    });

    await user.click(boxes()[0]!);
    await user.paste('111111');
    await user.click(screen.getByRole('button', { name: 'Verify' }));

    await expectToast('Invalid or expired verification code');
    await waitFor(() => expect(boxValues()).toEqual(['', '', '', '', '', '']));
    await waitFor(() => expect(boxes()[0]).toHaveFocus());
  });

  it('verifies, stores the session and goes to the dashboard', async () => {
    const member = buildUser();
    const { user, router, fetchMock } = await openCodeScreen({
      ...afterSignIn(member),
      'POST /users/verify-otp': () => ({ body: { token: 'fresh', user: member } }),
    });

    await user.click(boxes()[0]!);
    await user.paste('654321');
    await user.click(screen.getByRole('button', { name: 'Verify' }));

    await expectToast('Email verified successfully!');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(callsTo(fetchMock, 'POST', '/users/verify-otp')).toEqual([{ email: 'ada@example.com', otp: '654321', rememberMe: false }]);
    // Remember-me was not ticked on the login form.
    expect(sessionStorage.getItem(STORAGE_KEYS.token)).toBe('fresh');
  });

  it('starts the resend countdown at 60 seconds, resends, and restarts it from the server\u2019s retryAfter', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let resends = 0;
    const { user, fetchMock } = await openCodeScreen(
      {
        'POST /users/resend-otp': () =>
          ++resends === 1
            ? { body: { message: 'OTP sent successfully' } }
            : { status: 429, body: { message: 'Please wait 42 seconds before requesting a new code', code: 'RATE_LIMITED', retryAfter: 42 } },
      },
      { fakeTimers: true },
    );

    expect(screen.getByRole('button', { name: /^Resend code in (60|59)s$/ })).toBeDisabled();
    act(() => vi.advanceTimersByTime(60_000));
    await user.click(screen.getByRole('button', { name: 'Resend code' }));

    await expectToast('OTP sent successfully');
    expect(screen.getByRole('button', { name: /^Resend code in (60|59)s$/ })).toBeDisabled();
    expect(callsTo(fetchMock, 'POST', '/users/resend-otp')).toEqual([{ email: 'ada@example.com' }]);

    act(() => vi.advanceTimersByTime(60_000));
    await user.click(screen.getByRole('button', { name: 'Resend code' }));
    await expectToast('Please wait 42 seconds before requesting a new code');
    expect(screen.getByRole('button', { name: /^Resend code in (42|41)s$/ })).toBeDisabled();
    vi.useRealTimers();
  });
});

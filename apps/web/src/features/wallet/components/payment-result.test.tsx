import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildUser, expectToast, renderApp, signIn } from '@/testing/test-utils';

describe('payment result pages', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([
    ['/wallet/payment/success', 'Payment Successful!', 'Payment successful!'],
    ['/wallet/payment/timeout', 'Payment Timed Out', 'Payment timed out'],
  ])('%s says what happened, toasts it and returns to /wallet after 3 s', async (path, heading, message) => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    signIn(buildUser());
    const { router } = renderApp(path);

    expect(await screen.findByRole('heading', { name: heading })).toBeInTheDocument();
    await expectToast(message);

    act(() => vi.advanceTimersByTime(2500));
    expect(router.state.location.pathname).toBe(path);
    act(() => vi.advanceTimersByTime(600));
    await waitFor(() => expect(router.state.location.pathname).toBe('/wallet'));
  });
});

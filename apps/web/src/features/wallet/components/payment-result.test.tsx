import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildUser } from '@/testing/builders';
import { expectToast, pendingPages, renderApp, signIn } from '@/testing/test-utils';

describe('payment result pages', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([
    ['/wallet/payment/success', 'Payment Successful!', 'Payment successful!'],
    ['/wallet/payment/timeout', 'Payment Timed Out', 'Payment timed out'],
  ])('%s says what happened, toasts it and returns to /wallet after 3 s', async (path, heading, message) => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    signIn(buildUser(), pendingPages.wallet);
    const { router } = renderApp(path);

    expect(await screen.findByRole('heading', { name: heading })).toBeInTheDocument();
    await expectToast(message);
    expect(screen.getByText(/^Taking you to your wallet/)).toHaveTextContent('Taking you to your wallet in 3 seconds…');

    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByText(/^Taking you to your wallet/)).toHaveTextContent('in 2 seconds…');
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByText(/^Taking you to your wallet/)).toHaveTextContent('in 1 second…');
    act(() => vi.advanceTimersByTime(500));
    expect(router.state.location.pathname).toBe(path);
    act(() => vi.advanceTimersByTime(600));
    await waitFor(() => expect(router.state.location.pathname).toBe('/wallet'));
  });
});

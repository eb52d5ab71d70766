import { act, screen, waitFor } from '@testing-library/react';
import { render } from '@testing-library/react';
import { createElement } from 'react';
import { Toaster } from 'react-hot-toast';
import { describe, expect, it, vi } from 'vitest';
import { messages, STORAGE_KEYS } from '@terrafund/contracts';
import { ApiError } from './api-client';
import { handleGlobalError, showFlashMessage } from './query-client';

function stubLocation() {
  const assign = vi.fn();
  vi.stubGlobal('location', { ...window.location, assign });
  return assign;
}

describe('global error handling', () => {
  it('on a 401 ends the session, sends the whole page to /login and toasts "Session expired" there', async () => {
    const assign = stubLocation();
    localStorage.setItem(STORAGE_KEYS.token, 'old');
    localStorage.setItem(STORAGE_KEYS.user, '{}');

    handleGlobalError(new ApiError({ status: 401, code: 'UNAUTHENTICATED', serverMessage: 'Unauthorized' }), undefined);

    expect(assign).toHaveBeenCalledWith('/login');
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.user)).toBeNull();

    // After the reload, the new page shows the message once.
    render(createElement(Toaster));
    act(() => showFlashMessage());
    expect(await screen.findByText('Session expired. Please login again.')).toBeInTheDocument();
    act(() => showFlashMessage());
    expect(screen.getAllByText('Session expired. Please login again.')).toHaveLength(1);
  });

  it('sends an admin refused for lack of two-factor sign-in to Profile → Security, keeping the session', async () => {
    const assign = stubLocation();
    localStorage.setItem(STORAGE_KEYS.token, 'admin-token');
    render(createElement(Toaster));
    const refused = new ApiError({ status: 403, code: 'TWO_FACTOR_REQUIRED', serverMessage: messages.twoFactor.required });
    act(() => handleGlobalError(refused, { errorToast: 'Failed to load users.' }));
    expect(assign).toHaveBeenCalledWith('/profile#security');
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('admin-token');
    expect(await screen.findByText(messages.twoFactor.required)).toBeInTheDocument();
  });

  it('toasts the server message, or the generic one, for any other failure', async () => {
    render(createElement(Toaster));
    act(() => handleGlobalError(new ApiError({ status: 409, code: 'CONFLICT', serverMessage: 'Email is already verified' }), undefined));
    expect(await screen.findByText('Email is already verified')).toBeInTheDocument();

    act(() => handleGlobalError(new ApiError({ status: 0, code: 'NETWORK_ERROR' }), undefined));
    expect(await screen.findByText('An error occurred. Please try again.')).toBeInTheDocument();
  });

  it("toasts the screen's own message when the request names one", async () => {
    render(createElement(Toaster));
    const failure = new ApiError({ status: 500, code: 'INTERNAL_ERROR', serverMessage: 'An error occurred. Please try again.' });
    act(() => handleGlobalError(failure, { errorToast: 'Failed to load users.' }));
    expect(await screen.findByText('Failed to load users.')).toBeInTheDocument();

    const conflict = new ApiError({ status: 409, code: 'CONFLICT', serverMessage: 'Only a pending KYC can be approved or rejected' });
    act(() => handleGlobalError(conflict, { errorToast: (error) => (error === conflict ? 'Server said no' : 'Fallback') }));
    expect(await screen.findByText('Server said no')).toBeInTheDocument();
  });

  it('leaves the message to a caller that asked to show its own', async () => {
    const assign = stubLocation();
    render(createElement(Toaster));
    act(() => handleGlobalError(new ApiError({ status: 400, code: 'VALIDATION_ERROR', serverMessage: 'Bad' }), { skipGlobalToast: true }));
    act(() => handleGlobalError(new ApiError({ status: 401, code: 'UNAUTHENTICATED' }), { skipSessionExpiry: true, skipGlobalToast: true }));
    await waitFor(() => expect(screen.queryByText('Bad')).not.toBeInTheDocument());
    expect(assign).not.toHaveBeenCalled();
  });
});

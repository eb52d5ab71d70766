import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { messages, STORAGE_KEYS, type DataExport, type User } from '@terrafund/contracts';
import { buildUser } from '@/testing/builders';
import { callsTo, captureDownloads, expectToast, pendingPages, renderApp, signIn } from '@/testing/test-utils';

const pendingExport: DataExport = {
  id: 'export-1',
  status: 'pending',
  createdAt: '2030-03-02T10:00:00.000Z',
  expiresAt: '2030-03-09T10:00:00.000Z',
};
const readyExport: DataExport = { ...pendingExport, status: 'ready' };

async function openPrivacy(member: User = buildUser(), handlers: Parameters<typeof signIn>[1] = {}) {
  const fetchMock = signIn(member, { ...pendingPages.profile, 'GET /users/data-export': () => ({ body: [] }), ...handlers });
  const app = renderApp('/profile');
  const privacy = await screen.findByRole('region', { name: 'Privacy' }, { timeout: 8000 });
  return { ...app, fetchMock, privacy };
}

const exportCard = () => screen.getByRole('region', { name: 'Download my data' });
const closeCard = () => screen.getByRole('region', { name: 'Close my account' });

describe('Profile → Privacy → Download my data', { timeout: 20_000 }, () => {
  const clicked = captureDownloads('blob:export');

  it('asks for the password, sends only it, lists the export and asks again until it is ready, then downloads it', async () => {
    let list: DataExport[] = [];
    const { user, fetchMock } = await openPrivacy(buildUser(), {
      'GET /users/data-export': () => ({ body: list }),
      'POST /users/data-export': () => {
        list = [pendingExport];
        return { status: 202, body: pendingExport };
      },
      [`GET /users/data-export/${readyExport.id}/download`]: () => ({
        body: 'PK',
        headers: { 'Content-Type': 'application/zip', 'Content-Disposition': 'attachment; filename="terrafund-data-2026-03-02.zip"' },
      }),
    });

    // The password is asked only once the member asks for the export; without it nothing is sent.
    expect(within(exportCard()).queryByLabelText('Password')).not.toBeInTheDocument();
    await user.click(within(exportCard()).getByRole('button', { name: 'Request my data' }));
    expect(within(exportCard()).getByLabelText('Password')).toHaveFocus();
    await user.click(within(exportCard()).getByRole('button', { name: 'Prepare my data' }));
    expect(await within(exportCard()).findByLabelText('Password')).toHaveAccessibleDescription(messages.validation.passwordRequired);
    expect(callsTo(fetchMock, 'POST', '/users/data-export')).toHaveLength(0);

    await user.type(within(exportCard()).getByLabelText('Password'), 'correct horse');
    await user.click(within(exportCard()).getByRole('button', { name: 'Prepare my data' }));
    await expectToast(messages.privacy.exportStarted);
    expect(callsTo(fetchMock, 'POST', '/users/data-export')).toEqual([{ password: 'correct horse' }]);
    // The form closes; the focus goes back to the button that opened it.
    expect(within(exportCard()).queryByLabelText('Password')).not.toBeInTheDocument();
    expect(within(exportCard()).getByRole('button', { name: 'Request my data' })).toHaveFocus();

    const exports = within(exportCard()).getByRole('list', { name: 'Your data exports' });
    expect(within(exports).getByText('Preparing')).toBeInTheDocument();
    expect(within(exports).queryByRole('button', { name: /Download/ })).not.toBeInTheDocument();

    // The server finishes it: the list, asked again while pending, shows it ready.
    list = [readyExport];
    const download = await within(exports).findByRole('button', { name: /^Download/ }, { timeout: 6000 });
    expect(within(exports).getByText('Ready')).toBeInTheDocument();
    expect(within(exports).getByText(/Download until/)).toHaveTextContent('Mar 09, 2030');

    // Once ready, the list is no longer asked for every moment.
    const asked = callsTo(fetchMock, 'GET', '/users/data-export').length;
    await user.click(download);
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(clicked[0]!.download).toBe('terrafund-data-2026-03-02.zip');
    const call = fetchMock.mock.calls.find(([input]) => String(input).includes('/download'))!;
    expect(new Headers(call[1]?.headers).get('Authorization')).toBe('Bearer test-token');
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(callsTo(fetchMock, 'GET', '/users/data-export').length).toBe(asked);
  });

  it('asks a member with two-factor sign-in for the code instead, and shows "Invalid code" under it', async () => {
    const { user, fetchMock } = await openPrivacy(buildUser({ twoFactorEnabled: true }), {
      'POST /users/data-export': () => ({
        status: 400,
        body: { message: messages.stepUp.codeInvalid, code: 'VALIDATION_ERROR', fields: { code: messages.stepUp.codeInvalid } },
      }),
    });
    await user.click(within(exportCard()).getByRole('button', { name: 'Request my data' }));
    expect(within(exportCard()).queryByLabelText('Password')).not.toBeInTheDocument();
    const code = within(exportCard()).getByLabelText('Authentication code');

    await user.type(code, '12345');
    await user.click(within(exportCard()).getByRole('button', { name: 'Prepare my data' }));
    expect(code).toHaveAccessibleDescription(messages.twoFactor.codeRequired);
    expect(callsTo(fetchMock, 'POST', '/users/data-export')).toHaveLength(0);

    await user.clear(code);
    await user.type(code, '123 456');
    await user.click(within(exportCard()).getByRole('button', { name: 'Prepare my data' }));
    await waitFor(() => expect(code).toHaveAccessibleDescription(messages.stepUp.codeInvalid));
    expect(callsTo(fetchMock, 'POST', '/users/data-export')).toEqual([{ code: '123456' }]);
  });

  it('shows an export past its 7 days as expired, without a download, and toasts the server\'s word on a refused download', async () => {
    const expired: DataExport = { ...readyExport, id: 'export-0', createdAt: '2020-01-01T10:00:00.000Z', expiresAt: '2020-01-08T10:00:00.000Z' };
    const fresh: DataExport = { ...readyExport, expiresAt: '2999-01-01T00:00:00.000Z' };
    const { user } = await openPrivacy(buildUser(), {
      'GET /users/data-export': () => ({ body: [fresh, expired] }),
      [`GET /users/data-export/${fresh.id}/download`]: () => ({ status: 410, body: { message: messages.privacy.exportExpired, code: 'GONE' } }),
    });
    const exports = await within(exportCard()).findByRole('list', { name: 'Your data exports' });
    const [freshRow, expiredRow] = within(exports).getAllByRole('listitem');
    expect(within(expiredRow!).getByText('Expired')).toBeInTheDocument();
    expect(within(expiredRow!).queryByRole('button')).not.toBeInTheDocument();
    await user.click(within(freshRow!).getByRole('button', { name: /^Download/ }));
    await expectToast(messages.privacy.exportExpired);
    expect(clicked).toHaveLength(0);
  });

  it('toasts the once-a-day refusal', async () => {
    const { user } = await openPrivacy(buildUser(), {
      'GET /users/data-export': () => ({ body: [readyExport] }),
      'POST /users/data-export': () => ({ status: 429, body: { message: messages.privacy.exportOncePerDay, code: 'RATE_LIMITED' } }),
    });
    await user.click(within(exportCard()).getByRole('button', { name: 'Request my data' }));
    await user.type(within(exportCard()).getByLabelText('Password'), 'correct horse');
    await user.click(within(exportCard()).getByRole('button', { name: 'Prepare my data' }));
    await expectToast(messages.privacy.exportOncePerDay);
  });
});

describe('Profile → Privacy → Close my account', { timeout: 20_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it('says what is kept, for how long, and that a small balance is given up, before asking anything', async () => {
    await openPrivacy(buildUser({ balance: 12.5 }));
    const card = closeCard();
    expect(card).toHaveTextContent('KYC record and documents (with your postal address and date of birth), for 5 years after closing');
    expect(card).toHaveTextContent('the ledger and your transactions');
    expect(card).toHaveTextContent(messages.privacy.closeSmallBalance('$12.50'));
    expect(within(card).queryByLabelText('Type CLOSE to confirm')).not.toBeInTheDocument();
  });

  it('Cancel closes the form and gives the focus back to its button', async () => {
    const { user } = await openPrivacy();
    await user.click(within(closeCard()).getByRole('button', { name: 'Close my account' }));
    await user.click(within(closeCard()).getByRole('button', { name: 'Cancel' }));
    expect(within(closeCard()).queryByLabelText('Type CLOSE to confirm')).not.toBeInTheDocument();
    expect(within(closeCard()).getByRole('button', { name: 'Close my account' })).toHaveFocus();
  });

  it('needs CLOSE typed and the password; a 409 shows its reason and keeps the member signed in', async () => {
    const reason = messages.privacy.closeBalance('$40.00');
    const { user, fetchMock, router } = await openPrivacy(buildUser({ balance: 40 }), {
      'POST /users/close': () => ({ status: 409, body: { message: reason, code: 'CONFLICT' } }),
    });
    expect(closeCard()).toHaveTextContent(reason);
    await user.click(within(closeCard()).getByRole('button', { name: 'Close my account' }));
    const form = within(closeCard()).getByRole('form', { name: 'Close my account' });
    expect(within(form).getByLabelText('Type CLOSE to confirm')).toHaveFocus();

    await user.type(within(form).getByLabelText('Type CLOSE to confirm'), 'close');
    await user.click(within(form).getByRole('button', { name: 'Close my account permanently' }));
    expect(within(form).getByLabelText('Type CLOSE to confirm')).toHaveAccessibleDescription(messages.privacy.confirmRequired);
    expect(within(form).getByLabelText('Password')).toHaveAccessibleDescription(messages.validation.passwordRequired);
    expect(callsTo(fetchMock, 'POST', '/users/close')).toHaveLength(0);

    await user.clear(within(form).getByLabelText('Type CLOSE to confirm'));
    await user.type(within(form).getByLabelText('Type CLOSE to confirm'), 'CLOSE');
    await user.type(within(form).getByLabelText('Password'), 'correct horse');
    await user.click(within(form).getByRole('button', { name: 'Close my account permanently' }));

    expect(await within(form).findByRole('alert')).toHaveTextContent(reason);
    expect(callsTo(fetchMock, 'POST', '/users/close')).toEqual([{ confirm: 'CLOSE', password: 'correct horse' }]);
    expect(router.state.location.pathname).toBe('/profile');
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('test-token');
  });

  it('shows a wrong password under the field', async () => {
    const { user } = await openPrivacy(buildUser(), {
      'POST /users/close': () => ({
        status: 400,
        body: { message: messages.stepUp.passwordIncorrect, code: 'VALIDATION_ERROR', fields: { password: messages.stepUp.passwordIncorrect } },
      }),
    });
    await user.click(within(closeCard()).getByRole('button', { name: 'Close my account' }));
    await user.type(screen.getByLabelText('Type CLOSE to confirm'), 'CLOSE');
    await user.type(within(closeCard()).getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Close my account permanently' }));
    await waitFor(() => expect(within(closeCard()).getByLabelText('Password')).toHaveAccessibleDescription(messages.stepUp.passwordIncorrect));
  });

  it('once closed, signs the member out and goes to the landing page with the server\'s message', async () => {
    const { user, fetchMock, router } = await openPrivacy(buildUser({ twoFactorEnabled: true }), {
      'POST /users/close': () => ({ body: { message: messages.privacy.closed } }),
      'GET /config': () => new Promise(() => {}),
    });
    await user.click(within(closeCard()).getByRole('button', { name: 'Close my account' }));
    await user.type(screen.getByLabelText('Type CLOSE to confirm'), 'CLOSE');
    await user.type(within(closeCard()).getByLabelText('Authentication code'), '654321');
    await user.click(screen.getByRole('button', { name: 'Close my account permanently' }));

    await expectToast(messages.privacy.closed);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(callsTo(fetchMock, 'POST', '/users/close')).toEqual([{ confirm: 'CLOSE', code: '654321' }]);
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    // The server has ended the session already: no sign-out call with the dead token.
    expect(callsTo(fetchMock, 'POST', '/users/logout')).toHaveLength(0);
  });
});

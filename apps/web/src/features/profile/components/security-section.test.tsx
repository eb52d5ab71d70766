import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { messages, type Session, type User } from '@terrafund/contracts';
import { buildUser } from '@/testing/builders';
import { callsTo, expectToast, pendingPages, renderApp, signIn } from '@/testing/test-utils';

const CHROME = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const sessions: Session[] = [
  { id: 's-current', createdAt: '2026-03-01T10:00:00.000Z', lastSeenAt: '2026-03-02T10:00:00.000Z', userAgent: CHROME, current: true },
  { id: 's-phone', createdAt: '2026-02-01T10:00:00.000Z', lastSeenAt: '2026-02-20T10:00:00.000Z', userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Version/17.0 Mobile Safari/604.1', current: false },
];

/** Profile → Security (the Privacy section below asks for a password too). */
const security = () => screen.getByRole('region', { name: 'Security' });

async function openProfile(member: User, handlers: Parameters<typeof signIn>[1] = {}) {
  const fetchMock = signIn(member, { ...pendingPages.profile, 'GET /users/sessions': () => ({ body: sessions }), ...handlers });
  const app = renderApp('/profile#security');
  await screen.findByRole('heading', { name: 'Profile', level: 1 }, { timeout: 8000 });
  return { ...app, fetchMock };
}

describe('profile → security', { timeout: 20_000 }, () => {
  it('enables 2FA: the password, QR code and secret, a code, then the recovery codes with Copy and Download', async () => {
    let current = buildUser();
    URL.createObjectURL = vi.fn(() => 'blob:codes');
    URL.revokeObjectURL = vi.fn();
    const codes = Array.from({ length: 10 }, (_, i) => `abcd${i}-efgh${i}`);
    const { user, fetchMock } = await openProfile(current, {
      'GET /users/profile': () => ({ body: current }),
      'POST /users/2fa/setup': (body) =>
        (body as { password: string }).password === 'correct horse battery'
          ? { body: { secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/Terrafund:ada@example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Terrafund' } }
          : { status: 400, body: { message: messages.twoFactor.passwordIncorrect, code: 'VALIDATION_ERROR', fields: { password: messages.twoFactor.passwordIncorrect } } },
      'POST /users/2fa/enable': (body) => {
        if ((body as { code: string }).code !== '654321') {
          return { status: 400, body: { message: messages.twoFactor.codeInvalid, code: 'VALIDATION_ERROR' } };
        }
        current = { ...current, twoFactorEnabled: true };
        return { body: { recoveryCodes: codes, message: messages.twoFactor.enabled } };
      },
    });

    await user.click(screen.getByRole('button', { name: 'Enable 2FA' }));
    // The password first: not sent when empty, refused under its field when wrong.
    await user.click(await screen.findByRole('button', { name: 'Continue' }));
    expect(within(security()).getByLabelText('Password')).toHaveAccessibleDescription(messages.twoFactor.passwordIncorrect);
    expect(callsTo(fetchMock, 'POST', '/users/2fa/setup')).toHaveLength(0);
    await user.type(within(security()).getByLabelText('Password'), 'not the password');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/users/2fa/setup')).toHaveLength(1));
    expect(await within(security()).findByLabelText('Password')).toHaveAccessibleDescription(messages.twoFactor.passwordIncorrect);
    expect(screen.queryByRole('img', { name: 'QR code for your authenticator app' })).not.toBeInTheDocument();
    await user.clear(within(security()).getByLabelText('Password'));
    await user.type(within(security()).getByLabelText('Password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('img', { name: 'QR code for your authenticator app' })).toHaveAttribute('src', expect.stringMatching(/^data:image\/svg\+xml/));
    expect(screen.getByText('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Authentication code'), '111111');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    await waitFor(() => expect(screen.getByLabelText('Authentication code')).toHaveAccessibleDescription(messages.twoFactor.codeInvalid));

    await user.clear(screen.getByLabelText('Authentication code'));
    await user.type(screen.getByLabelText('Authentication code'), '654321');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual(codes);
    await expectToast(messages.twoFactor.enabled);

    await user.click(screen.getByRole('button', { name: 'Copy' }));
    // user-event's clipboard stands in for the browser's.
    await expectToast('Recovery codes copied');
    expect(await navigator.clipboard.readText()).toContain(codes.join('\n'));
    await user.click(screen.getByRole('button', { name: 'Download' }));
    expect(URL.createObjectURL).toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(await screen.findByRole('button', { name: 'Disable 2FA' })).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/users/2fa/setup').at(-1)).toEqual({ password: 'correct horse battery' });
    expect(callsTo(fetchMock, 'POST', '/users/2fa/enable')).toEqual([
      { password: 'correct horse battery', code: '111111' },
      { password: 'correct horse battery', code: '654321' },
    ]);
  });

  it('disables 2FA with the password and a code', async () => {
    let current = buildUser({ twoFactorEnabled: true });
    const { user, fetchMock } = await openProfile(current, {
      'GET /users/profile': () => ({ body: current }),
      'POST /users/2fa/disable': () => {
        current = { ...current, twoFactorEnabled: false };
        return { body: { message: messages.twoFactor.disabled } };
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Disable 2FA' }));
    await user.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(callsTo(fetchMock, 'POST', '/users/2fa/disable')).toHaveLength(0);
    await user.type(within(security()).getByLabelText('Password'), 'correct horse battery');
    await user.type(screen.getByLabelText('Authentication or recovery code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Turn off' }));
    await expectToast(messages.twoFactor.disabled);
    expect(callsTo(fetchMock, 'POST', '/users/2fa/disable')).toEqual([{ password: 'correct horse battery', code: '123456' }]);
    expect(await screen.findByRole('button', { name: 'Enable 2FA' })).toBeInTheDocument();
  });

  it('lists the sessions, signs one out, and signs out everywhere else', async () => {
    let live = [...sessions];
    const { user, fetchMock } = await openProfile(buildUser(), {
      'GET /users/sessions': () => ({ body: live }),
      'DELETE /users/sessions/s-phone': () => {
        live = live.filter((s) => s.id !== 's-phone');
        return { status: 204 };
      },
      'DELETE /users/sessions': () => {
        live = live.filter((s) => s.current);
        return { status: 204 };
      },
    });
    const list = await screen.findByRole('list', { name: 'Sessions' });
    expect(within(list).getByText('Chrome on macOS')).toBeInTheDocument();
    expect(within(list).getByText('This device')).toBeInTheDocument();
    expect(within(list).getByText('Safari on iOS')).toBeInTheDocument();
    // The current session has no Sign out of its own.
    expect(within(list).getAllByRole('button', { name: /^Sign out/ })).toHaveLength(1);

    await user.click(within(list).getByRole('button', { name: 'Sign out Safari on iOS' }));
    await expectToast(messages.sessions.revoked);
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Sessions' })).queryByText('Safari on iOS')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Sign out everywhere else' })).toBeDisabled();
    expect(callsTo(fetchMock, 'DELETE', '/users/sessions')).toHaveLength(0);
  });

  it('signs out everywhere else', async () => {
    let live = [...sessions];
    const { user, fetchMock } = await openProfile(buildUser(), {
      'GET /users/sessions': () => ({ body: live }),
      'DELETE /users/sessions': () => {
        live = live.filter((s) => s.current);
        return { status: 204 };
      },
    });
    await screen.findByText('Safari on iOS');
    await user.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    await expectToast(messages.sessions.othersRevoked);
    await waitFor(() => expect(screen.queryByText('Safari on iOS')).not.toBeInTheDocument());
    expect(callsTo(fetchMock, 'DELETE', '/users/sessions')).toHaveLength(1);
  });
});

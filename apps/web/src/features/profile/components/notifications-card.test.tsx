import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { messages, NOTIFICATION_PREFERENCE_DEFAULTS, type NotificationPreferences } from '@terrafund/contracts';
import { buildUser } from '@/testing/builders';
import { callsTo, expectToast, pendingPages, renderApp, signIn } from '@/testing/test-utils';

async function openNotifications(handlers: Parameters<typeof signIn>[1] = {}) {
  const fetchMock = signIn(buildUser(), { ...pendingPages.profile, ...handlers });
  const app = renderApp('/profile');
  const card = await screen.findByRole('region', { name: 'Notifications' }, { timeout: 8000 });
  return { ...app, fetchMock, card };
}

describe('Profile → Notifications', { timeout: 20_000 }, () => {
  it('shows a labelled switch per kind, as the server has them', async () => {
    const { card } = await openNotifications({
      'GET /users/notification-preferences': () => ({ body: NOTIFICATION_PREFERENCE_DEFAULTS }),
    });
    const switches = await within(card).findAllByRole('switch');
    expect(switches).toHaveLength(6);
    for (const [label, on] of [
      ['Dividends paid', false],
      ['KYC verification', true],
      ['Withdrawals', true],
      ['Pack payments', true],
      ['Membership', true],
      ['New projects', false],
    ] as const) {
      expect(within(card).getByRole('switch', { name: label })).toHaveAttribute('aria-checked', String(on));
    }
    expect(card).toHaveTextContent('Security e-mails are always sent');
  });

  it('saves a change at once, with only that kind, and keeps what the server answers', async () => {
    let saved: NotificationPreferences = { ...NOTIFICATION_PREFERENCE_DEFAULTS };
    const { user, fetchMock, card } = await openNotifications({
      'GET /users/notification-preferences': () => ({ body: saved }),
      'PATCH /users/notification-preferences': (body) => {
        saved = { ...saved, ...(body as Partial<NotificationPreferences>) };
        return { body: saved };
      },
    });
    const projects = await within(card).findByRole('switch', { name: 'New projects' });
    await user.click(projects);
    expect(projects).toHaveAttribute('aria-checked', 'true');
    // The keyboard toggles it too (Space on the focused switch).
    const withdrawals = within(card).getByRole('switch', { name: 'Withdrawals' });
    withdrawals.focus();
    await user.keyboard(' ');
    await waitFor(() => expect(callsTo(fetchMock, 'PATCH', '/users/notification-preferences')).toEqual([{ projects: true }, { withdrawals: false }]));
    expect(withdrawals).toHaveAttribute('aria-checked', 'false');
    expect(saved).toMatchObject({ projects: true, withdrawals: false });
  });

  it('puts a switch back and toasts when the server refuses', async () => {
    const { user, card } = await openNotifications({
      'GET /users/notification-preferences': () => ({ body: NOTIFICATION_PREFERENCE_DEFAULTS }),
      'PATCH /users/notification-preferences': () => ({ status: 503 }),
    });
    const dividends = await within(card).findByRole('switch', { name: 'Dividends paid' });
    await user.click(dividends);
    await expectToast(messages.privacy.preferencesFailed);
    await waitFor(() => expect(dividends).toHaveAttribute('aria-checked', 'false'));
  });

  it('offers to try again when the preferences cannot be loaded', async () => {
    let fail = true;
    const { user, card } = await openNotifications({
      'GET /users/notification-preferences': () =>
        fail ? { status: 503, body: { message: 'Service unavailable', code: 'UNAVAILABLE' } } : { body: NOTIFICATION_PREFERENCE_DEFAULTS },
    });
    expect(await within(card).findByRole('alert', {}, { timeout: 8000 })).toHaveTextContent('could not be loaded');
    fail = false;
    await user.click(within(card).getByRole('button', { name: 'Try again' }));
    expect(await within(card).findByRole('switch', { name: 'Membership' })).toHaveAttribute('aria-checked', 'true');
  });
});

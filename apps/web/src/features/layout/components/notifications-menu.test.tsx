import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Notification, NotificationsPage } from '@terrafund/contracts';
import { buildUser } from '@/testing/builders';
import { callsTo, pendingPages, renderApp, signIn } from '@/testing/test-utils';

const note = (overrides: Partial<Notification>): Notification => ({
  id: '00000000-0000-4000-8000-000000000001',
  type: 'withdrawal.completed',
  title: 'Withdrawal sent',
  body: 'Your withdrawal of 30.00 USD was sent. Transaction hash: 0xabc',
  createdAt: '2026-03-02T10:00:00.000Z',
  readAt: null,
  ...overrides,
});

/** A server holding `items`, which marks read as the real one does; `add` brings news. */
function bellServer(initial: Notification[]) {
  return bellServerWithNews(initial).handlers;
}

function bellServerWithNews(initial: Notification[]) {
  let items = initial;
  const add = (n: Notification) => {
    items = [n, ...items];
  };
  const unread = () => items.filter((n) => n.readAt === null).length;
  const handlers = {
    'GET /notifications': (): { body: NotificationsPage } => ({ body: { items, unreadCount: unread(), nextCursor: null } }),
    'POST /notifications/read': (body: unknown) => {
      const request = body as { ids?: string[]; all?: boolean };
      items = items.map((n) => (request.all || request.ids?.includes(n.id) ? { ...n, readAt: '2026-03-02T11:00:00.000Z' } : n));
      return { body: { unreadCount: unread() } };
    },
  };
  return { handlers, add };
}

describe('the notification bell', { timeout: 20_000 }, () => {
  it('shows the unread count, opens the list with links to each screen, and closes on Escape', async () => {
    signIn(buildUser(), {
      ...pendingPages.dashboard,
      ...bellServer([
        note({ id: '00000000-0000-4000-8000-000000000002', type: 'kyc.rejected', title: 'Your identity verification was rejected', body: 'The reviewer wrote: blurred.' }),
        note({}),
        note({ id: '00000000-0000-4000-8000-000000000003', type: 'investment.made', title: 'Investment made', readAt: '2026-03-01T00:00:00.000Z' }),
      ]),
    });
    const { user } = renderApp('/dashboard');

    const bell = await screen.findByRole('button', { name: 'Notifications, 2 unread' }, { timeout: 8000 });
    expect(within(bell).getByTestId('notifications-badge')).toHaveTextContent('2');
    expect(bell).toHaveAttribute('aria-expanded', 'false');

    await user.click(bell);
    expect(bell).toHaveAttribute('aria-expanded', 'true');
    const list = screen.getByRole('list', { name: 'Notifications' });
    const links = within(list).getAllByRole('link');
    expect(links.map((l) => l.getAttribute('href'))).toEqual(['/kyc', '/wallet', '/projects']);
    expect(links[0]).toHaveTextContent('The reviewer wrote: blurred.');
    expect(links[0]).toHaveTextContent('(unread)');
    expect(links[2]).not.toHaveTextContent('(unread)');

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('list', { name: 'Notifications' })).not.toBeInTheDocument();
    expect(bell).toHaveAttribute('aria-expanded', 'false');
    expect(bell).toHaveFocus();
  });

  it('marks an item read when it is opened, and goes to its screen', async () => {
    const fetchMock = signIn(buildUser(), { ...pendingPages.dashboard, ...pendingPages.wallet, ...bellServer([note({})]) });
    const { user, router } = renderApp('/dashboard');

    await user.click(await screen.findByRole('button', { name: 'Notifications, 1 unread' }, { timeout: 8000 }));
    await user.click(within(screen.getByRole('list', { name: 'Notifications' })).getByRole('link', { name: /Withdrawal sent/ }));
    expect(callsTo(fetchMock, 'POST', '/notifications/read')).toEqual([{ ids: ['00000000-0000-4000-8000-000000000001'] }]);
    await waitFor(() => expect(router.state.location.pathname).toBe('/wallet'));
    expect(await screen.findByRole('button', { name: 'Notifications' })).toBeInTheDocument();
    expect(screen.queryByTestId('notifications-badge')).not.toBeInTheDocument();
  });

  it('marks all read', async () => {
    const fetchMock = signIn(buildUser(), { ...pendingPages.dashboard, ...bellServer([note({}), note({ id: '00000000-0000-4000-8000-000000000009' })]) });
    const { user } = renderApp('/dashboard');

    await user.click(await screen.findByRole('button', { name: 'Notifications, 2 unread' }, { timeout: 8000 }));
    await user.click(screen.getByRole('button', { name: 'Mark all as read' }));
    expect(callsTo(fetchMock, 'POST', '/notifications/read')).toEqual([{ all: true }]);
    expect(await screen.findByRole('button', { name: 'Notifications' })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.queryByRole('button', { name: 'Mark all as read' })).not.toBeInTheDocument();
  });

  it('asks the server again when it is opened, without any timer', async () => {
    const { add, handlers } = bellServerWithNews([]);
    const fetchMock = signIn(buildUser(), { ...pendingPages.dashboard, ...handlers });
    const { user } = renderApp('/dashboard');
    const bell = await screen.findByRole('button', { name: 'Notifications' }, { timeout: 8000 });
    // The bell is drawn before its first request goes out (the query starts after mounting): count from that one.
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/notifications').length).toBeGreaterThan(0));
    const asked = callsTo(fetchMock, 'GET', '/notifications').length;

    add(note({ title: 'Withdrawal sent' }));
    await user.click(bell);
    expect(await within(await screen.findByRole('list', { name: 'Notifications' })).findByText('Withdrawal sent')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET', '/notifications').length).toBe(asked + 1);
    expect(await screen.findByRole('button', { name: 'Notifications, 1 unread' })).toBeInTheDocument();
  });

  it('says so when there is nothing yet', async () => {
    signIn(buildUser(), { ...pendingPages.dashboard, ...bellServer([]) });
    const { user } = renderApp('/dashboard');
    await user.click(await screen.findByRole('button', { name: 'Notifications' }, { timeout: 8000 }));
    expect(await screen.findByText('No notifications yet')).toBeInTheDocument();
  });
});

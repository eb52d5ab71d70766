import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { expectToast, queriesTo, renderApp, signIn } from '@/testing/test-utils';
import { admin, buildUserWithKyc } from '@/testing/builders';

const ada = buildUserWithKyc({ kycStatus: 'pending' });
const alan = buildUserWithKyc({
  _id: '33333333-3333-4333-8333-333333333333',
  firstName: 'Alan',
  lastName: 'Turing',
  email: 'alan@example.com',
  kycStatus: 'approved',
  kycVerified: true,
  createdAt: '2025-11-20T08:00:00.000Z',
});

const page = (users: unknown[], total = users.length) => ({ body: users, headers: { 'X-Total-Count': String(total) } });

/** The first visit loads the route module: give it time, so a busy machine does not fail the test. */
async function visit(path: string) {
  const view = renderApp(path);
  await screen.findByRole('heading', { level: 1, name: 'Manage Users' }, { timeout: 5000 });
  return view;
}

describe('admin users list', { timeout: 20_000 }, () => {
  it('lists users with role, KYC status, verification, member since, a mail link and a details link', async () => {
    const fetchMock = signIn(admin, { 'GET /admin/users': () => page([ada, alan]) });
    await visit('/admin/users');

    const table = await screen.findByRole('table', { name: 'All users' });
    const adaRow = within(table).getByText('Ada Lovelace').closest('tr')!;
    expect(within(adaRow).getByText('ada@example.com')).toBeInTheDocument();
    expect(within(adaRow).getByText('User')).toBeInTheDocument();
    expect(within(adaRow).getByText('Pending')).toBeInTheDocument();
    expect(within(adaRow).getByText('Unverified')).toBeInTheDocument();
    expect(within(adaRow).getByText('Jan 05, 2026')).toBeInTheDocument();
    expect(within(adaRow).getByRole('link', { name: 'Email Ada Lovelace' })).toHaveAttribute('href', 'mailto:ada@example.com');
    expect(within(adaRow).getByRole('link', { name: 'View details of Ada Lovelace' })).toHaveAttribute('href', `/admin/users/${ada._id}`);

    const alanRow = within(table).getByText('Alan Turing').closest('tr')!;
    expect(within(alanRow).getByText('Approved')).toBeInTheDocument();
    expect(within(alanRow).getByText('Verified')).toBeInTheDocument();
    expect(within(alanRow).getByText('Nov 20, 2025')).toBeInTheDocument();

    expect(queriesTo(fetchMock, '/admin/users')).toEqual([{ page: '1', limit: '20' }]);
    // One page only: no pager.
    expect(screen.queryByRole('navigation', { name: 'Users pages' })).not.toBeInTheDocument();
  });

  it('searches by name or e-mail once typing pauses, keeps the search in the URL and starts again at page 1', async () => {
    const fetchMock = signIn(admin, {
      'GET /admin/users': (_body, { url }) => (new URL(url).searchParams.get('search') === 'alan' ? page([alan]) : page([ada, alan], 45)),
    });
    const { user, router } = await visit('/admin/users?page=2');
    await screen.findByText('Page 2 of 3');

    await user.type(screen.getByRole('searchbox', { name: 'Search users by name or email' }), 'alan');

    await waitFor(() => expect(router.state.location.search).toBe('?search=alan'));
    await waitFor(() => expect(screen.queryByText('Ada Lovelace')).not.toBeInTheDocument());
    expect(screen.getByText('Alan Turing')).toBeInTheDocument();
    // Debounced: one request for the whole word, not one per letter.
    expect(queriesTo(fetchMock, '/admin/users')).toEqual([
      { page: '2', limit: '20' },
      { search: 'alan', page: '1', limit: '20' },
    ]);
  });

  it('switches to the users waiting for a KYC decision, and back to all users', async () => {
    const fetchMock = signIn(admin, { 'GET /admin/users': () => page([ada, alan]), 'GET /admin/pending': () => ({ body: [ada] }) });
    const { user, router } = await visit('/admin/users');
    await screen.findByRole('table', { name: 'All users' });

    await user.click(screen.getByRole('button', { name: 'View Pending KYC' }));

    const table = await screen.findByRole('table', { name: 'Pending KYC reviews' });
    expect(within(table).getByText('Ada Lovelace')).toBeInTheDocument();
    expect(within(table).queryByText('Alan Turing')).not.toBeInTheDocument();
    expect(queriesTo(fetchMock, '/admin/pending')).toHaveLength(1);
    expect(router.state.location.search).toBe('?view=pending');

    await user.click(screen.getByRole('button', { name: 'View All Users' }));
    expect(await screen.findByRole('table', { name: 'All users' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('');
  });

  it('offers Clear Filters when nothing matches, which empties the search and lists everyone again', async () => {
    const fetchMock = signIn(admin, {
      'GET /admin/users': (_body, { url }) => (new URL(url).searchParams.get('search') ? page([]) : page([ada, alan])),
    });
    const { user, router } = await visit('/admin/users?search=nobody');

    expect(await screen.findByText('No users found')).toBeInTheDocument();
    expect(screen.getByRole('searchbox')).toHaveValue('nobody');

    await user.click(screen.getByRole('button', { name: 'Clear Filters' }));

    expect(await screen.findByText('Ada Lovelace')).toBeInTheDocument();
    expect(screen.getByRole('searchbox')).toHaveValue('');
    expect(router.state.location.search).toBe('');
    expect(queriesTo(fetchMock, '/admin/users').at(-1)).toEqual({ page: '1', limit: '20' });
  });

  it('pages through the server-side pages with Previous and Next', async () => {
    const fetchMock = signIn(admin, {
      'GET /admin/users': (_body, { url }) => (new URL(url).searchParams.get('page') === '2' ? page([alan], 21) : page([ada], 21)),
    });
    const { user, router } = await visit('/admin/users');

    expect(await screen.findByText('Page 1 of 2')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Next' }));

    expect(await screen.findByText('Alan Turing')).toBeInTheDocument();
    expect(screen.getByText('Page 2 of 2')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(router.state.location.search).toBe('?page=2');
    expect(queriesTo(fetchMock, '/admin/users').map((q) => q.page)).toEqual(['1', '2']);

    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(await screen.findByText('Ada Lovelace')).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();
  });

  it('toasts "Failed to load users." when the list fails, and offers to try again', async () => {
    let fail = true;
    signIn(admin, {
      'GET /admin/users': () => (fail ? { status: 400, body: { message: 'Invalid input', code: 'VALIDATION_ERROR' } } : page([ada])),
    });
    const { user } = await visit('/admin/users');

    await expectToast('Failed to load users.');
    expect(screen.queryByText('Invalid input')).not.toBeInTheDocument();

    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Ada Lovelace')).toBeInTheDocument();
  });

  it('toasts "Failed to load pending KYC users." when the pending list fails', async () => {
    signIn(admin, { 'GET /admin/pending': () => ({ status: 403, body: { message: 'You do not have permission to do this', code: 'FORBIDDEN' } }) });
    await visit('/admin/users?view=pending');

    await expectToast('Failed to load pending KYC users.');
  });

  it('shows a closed account as Closed with its tombstone, and offers no mail link to it', async () => {
    const closed = buildUserWithKyc({
      _id: '44444444-4444-4444-8444-444444444444',
      firstName: 'Closed',
      lastName: 'account',
      email: 'closed-44444444-4444-4444-8444-444444444444@invalid',
      closedAt: '2026-03-01T09:00:00.000Z',
    });
    signIn(admin, { 'GET /admin/users': () => page([ada, closed]) });
    await visit('/admin/users');

    const table = await screen.findByRole('table', { name: 'All users' });
    const row = within(table).getByText(closed.email).closest('tr')!;
    expect(within(row).getByText('Closed')).toBeInTheDocument();
    expect(within(row).queryByRole('link', { name: /^Email/ })).not.toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'View details of Closed account' })).toBeInTheDocument();
    const adaRow = within(table).getByText('ada@example.com').closest('tr')!;
    expect(within(adaRow).queryByText('Closed')).not.toBeInTheDocument();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { expectToast, renderApp, signIn } from '@/testing/test-utils';
import { admin, buildAdminTransaction, buildPendingWithdrawal, buildStats } from '@/testing/builders';

const payout = buildAdminTransaction({
  _id: '22222222-2222-4222-8222-222222222222',
  type: 'payout',
  amount: 10,
  description: 'Daily dividend',
  plan: null,
  date: '2026-02-03T00:00:00.000Z',
});
const withdrawal = buildPendingWithdrawal({
  _id: '33333333-3333-4333-8333-333333333333',
  user: { _id: '44444444-4444-4444-8444-444444444444', firstName: 'Alan', lastName: 'Turing', email: 'alan@example.com' },
});

/** The first visit loads the route module: give it time, so a busy machine does not fail the test. */
async function visit() {
  const view = renderApp('/admin/dashboard');
  await screen.findByRole('heading', { level: 1, name: 'Admin Dashboard' }, { timeout: 5000 });
  return view;
}

const card = (title: string) => screen.findByRole('group', { name: title });

describe('admin dashboard', { timeout: 20_000 }, () => {
  it('shows the figures in whole dollars, with each growth signed, arrowed and coloured by direction', async () => {
    signIn(admin, {
      'GET /admin/dashboard/stats': () => ({ body: buildStats() }),
      'GET /admin/dashboard/transactions': () => ({ body: [] }),
    });
    await visit();

    const users = await card('Total Users');
    expect(within(users).getByText('1,234')).toBeInTheDocument();
    const userGrowth = within(users).getByText('+12.5%');
    expect(userGrowth).toHaveClass('text-emerald-600');
    expect(userGrowth.querySelector('svg')).not.toBeNull();
    expect(within(users).getByText('vs previous 30 days')).toBeInTheDocument();

    const investments = await card('Total Investments');
    expect(within(investments).getByText('$1,250,000')).toBeInTheDocument();
    const investmentGrowth = within(investments).getByText('-3.2%');
    expect(investmentGrowth).toHaveClass('text-rose-600');
    expect(investmentGrowth.querySelector('svg')).not.toBeNull();

    expect(within(await card('Daily Payouts')).getByText('$1,340')).toBeInTheDocument();
    // 86,420.75 rounds to whole dollars (docs/product.md §5.2 Packs).
    expect(within(await card('Monthly Volume')).getByText('$86,421')).toBeInTheDocument();
  });

  it('shows no growth as a plain 0%, without an arrow', async () => {
    signIn(admin, {
      'GET /admin/dashboard/stats': () => ({ body: buildStats({ userGrowth: 0, investmentGrowth: 0.04 }) }),
      'GET /admin/dashboard/transactions': () => ({ body: [] }),
    });
    await visit();

    for (const title of ['Total Users', 'Total Investments']) {
      const growth = within(await card(title)).getByText('0%');
      expect(growth).toHaveClass('text-slate-600');
      expect(growth.querySelector('svg')).toBeNull();
    }
  });

  it('lists the recent transactions with the member, type, whole-dollar amount, status and date', async () => {
    signIn(admin, {
      'GET /admin/dashboard/stats': () => ({ body: buildStats() }),
      'GET /admin/dashboard/transactions': () => ({ body: [withdrawal, payout] }),
    });
    await visit();

    const table = await screen.findByRole('table', { name: 'Recent transactions' });
    // The table is drawn while the list loads, its placeholder rows hidden from assistive technology: the answer's
    // rows are read once it is no longer busy (on a loaded machine the table is found before the answer arrives).
    await waitFor(() => expect(table).not.toHaveAttribute('aria-busy'), { timeout: 8000 });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);

    const [first, second] = rows as [HTMLElement, HTMLElement];
    expect(within(first).getByText('Alan Turing')).toBeInTheDocument();
    expect(within(first).getByText('alan@example.com')).toBeInTheDocument();
    expect(within(first).getByText('Withdrawal')).toBeInTheDocument();
    expect(within(first).getByText('-$251')).toBeInTheDocument();
    expect(within(first).getByText('Pending')).toBeInTheDocument();
    expect(within(first).getByText('Feb 10, 2026')).toBeInTheDocument();

    expect(within(second).getByText('Ada Lovelace')).toBeInTheDocument();
    expect(within(second).getByText('Payout')).toBeInTheDocument();
    expect(within(second).getByText('+$10')).toBeInTheDocument();
    expect(within(second).getByText('Completed')).toBeInTheDocument();

    expect(screen.getByRole('link', { name: 'View all' })).toHaveAttribute('href', '/admin/transactions');
  });

  it('shows placeholders while the figures and transactions load', async () => {
    let answer: () => void = () => {};
    const loaded = new Promise<void>((resolve) => (answer = resolve));
    signIn(admin, {
      'GET /admin/dashboard/stats': async () => {
        await loaded;
        return { body: buildStats() };
      },
      'GET /admin/dashboard/transactions': async () => {
        await loaded;
        return { body: [payout] };
      },
    });
    await visit();

    const stats = screen.getByRole('region', { name: 'Platform statistics' });
    expect(stats).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryByRole('group', { name: 'Total Users' })).not.toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Recent transactions' });
    expect(within(table).queryByText('Ada Lovelace')).not.toBeInTheDocument();
    // Skeleton rows, hidden from assistive technology (the table is marked busy instead).
    expect(table.querySelectorAll('tbody tr[aria-hidden="true"]')).toHaveLength(5);

    answer();
    expect(await card('Total Users')).toBeInTheDocument();
    expect(await within(table).findByText('Ada Lovelace')).toBeInTheDocument();
    expect(stats).not.toHaveAttribute('aria-busy');
  });

  it('says "Failed to load dashboard data." once when both calls fail, and offers to try again', async () => {
    let fail = true;
    const forbidden = { status: 403, body: { message: 'You do not have permission to do this', code: 'FORBIDDEN' } };
    signIn(admin, {
      'GET /admin/dashboard/stats': () => (fail ? forbidden : { body: buildStats() }),
      'GET /admin/dashboard/transactions': () => (fail ? forbidden : { body: [payout] }),
    });
    const { user } = await visit();

    await expectToast('Failed to load dashboard data.');
    await waitFor(() => expect(screen.getAllByRole('button', { name: 'Try again' })).toHaveLength(2));
    const toasts = screen.getAllByText('Failed to load dashboard data.');
    expect(toasts).toHaveLength(1);
    expect(screen.queryByText('You do not have permission to do this')).not.toBeInTheDocument();

    fail = false;
    for (const button of screen.getAllByRole('button', { name: 'Try again' })) await user.click(button);
    expect(await card('Total Users')).toBeInTheDocument();
    expect(await screen.findByText('Ada Lovelace')).toBeInTheDocument();
  });
});

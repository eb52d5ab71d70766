import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Transaction, User } from '@terrafund/contracts';
import { callsTo, renderApp, signIn } from '@/testing/test-utils';
import { buildTransaction, buildUser, endedMembership } from '@/testing/builders';
import { openWalletAs, walletHandlers } from '../testing/wallet-fixtures';

const member = buildUser({
  balance: 1234.5,
  membershipLevel: 'gold',
  membershipStartDate: '2026-01-05T10:00:00.000Z',
  membershipEndDate: '2029-01-05T10:00:00.000Z',
});

const openWallet = (user: User = member, handlers: Parameters<typeof signIn>[1] = {}) => openWalletAs(user, handlers);

const history = () => screen.getByRole('region', { name: 'Transaction History' });

describe('wallet view', { timeout: 20_000 }, () => {
  it('shows the membership with its dates, the balance with Withdraw, and the history', async () => {
    await openWallet();

    expect(screen.getByRole('heading', { level: 1, name: 'Plan' })).toBeInTheDocument();
    const membership = screen.getByRole('group', { name: 'Current membership' });
    expect(within(membership).getByText('Gold')).toBeInTheDocument();
    expect(within(membership).getByText('Start date').nextSibling).toHaveTextContent('Jan 05, 2026');
    expect(within(membership).getByText('End date').nextSibling).toHaveTextContent('Jan 05, 2029');
    const balance = screen.getByRole('group', { name: 'Wallet balance' });
    expect(within(balance).getByText('$1,234.50')).toBeInTheDocument();
    expect(within(balance).getByText('Available for withdrawal')).toBeInTheDocument();
    expect(within(balance).getByRole('button', { name: 'Withdraw' })).toBeInTheDocument();
    expect(await within(history()).findByText('No transactions found')).toBeInTheDocument();
  });

  it('reads "N/A" for dates the membership does not have', async () => {
    await openWallet(buildUser({ membershipLevel: 'startium' }));

    const membership = screen.getByRole('group', { name: 'Current membership' });
    expect(within(membership).getByText('Startium')).toBeInTheDocument();
    expect(within(membership).getByText('Start date').nextSibling).toHaveTextContent('N/A');
    expect(within(membership).getByText('End date').nextSibling).toHaveTextContent('N/A');
  });

  it('shows an ended membership as Ended with its end day, and offers a new pack', async () => {
    const ended = buildUser({
      balance: 7800,
      currentMembership: endedMembership,
    });
    const { user } = await openWallet(ended);

    const membership = screen.getByRole('group', { name: 'Last membership' });
    expect(within(membership).getByText('Gold')).toBeInTheDocument();
    expect(within(membership).getByText('Ended')).toBeInTheDocument();
    expect(within(membership).getByText('Start date').nextSibling).toHaveTextContent('Jan 05, 2026');
    expect(within(membership).getByText('Ended on').nextSibling).toHaveTextContent('Jan 05, 2029');
    expect(within(membership).getByText(/Your membership has ended\. Buy a new pack to receive dividends again/)).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Wallet balance' })).getByText('$7,800.00')).toBeInTheDocument();

    await user.click(within(membership).getByRole('button', { name: 'Buy a new pack' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Choose New Plan' })).toBeInTheDocument();
    expect(await screen.findByRole('radio', { name: 'Gold' })).toBeInTheDocument();
    // Nothing is replaced by a renewal: the ended pack is no longer the member's plan.
    expect(screen.queryByText(/is replaced by the new plan/)).not.toBeInTheDocument();
  });

  it('Switch Plan opens the chooser, marking the current pack; Back to Wallet returns', async () => {
    const { user } = await openWallet();

    await user.click(screen.getByRole('button', { name: 'Switch Plan' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Choose New Plan' })).toBeInTheDocument();
    const gold = (await screen.findByRole('radio', { name: 'Gold' })).closest('label')!;
    expect(within(gold).getByText('Current plan')).toBeInTheDocument();
    expect(screen.getByText('Your Gold membership is replaced by the new plan once its payment is confirmed.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Back to Wallet' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Plan' })).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Current membership' })).toBeInTheDocument();
  });

  it('waits for the fresh profile, so a plan paid a moment ago shows as the membership', async () => {
    let profileCalls = 0;
    let answerRefresh: () => void = () => {};
    const refreshed = new Promise<void>((resolve) => (answerRefresh = resolve));
    const stale = buildUser();
    const fetchMock = signIn(stale, {
      ...walletHandlers,
      'GET /users/profile': async () => {
        profileCalls += 1;
        // The first answer is the app's start-up check; the second is the wallet's own refresh.
        if (profileCalls === 1) return { body: stale };
        await refreshed;
        return { body: member };
      },
    });
    renderApp('/wallet');

    expect(await screen.findByText('Loading your wallet', {}, { timeout: 8000 })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { level: 1 })).not.toBeInTheDocument();

    answerRefresh();
    expect(await screen.findByRole('heading', { level: 1, name: 'Plan' })).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Current membership' })).getByText('Gold')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET', '/users/profile')).toHaveLength(2);
  });
});

describe('transaction history', { timeout: 20_000 }, () => {
  it('lists date, type, signed and coloured amount and status; money in is +green, the rest −red; pending has a clock', async () => {
    const transactions: Transaction[] = [
      buildTransaction({ type: 'withdrawal', amount: 40, status: 'pending', date: '2026-03-05T09:00:00.000Z', description: 'Withdrawal of 40.00 to bc1qxyz' }),
      buildTransaction({ type: 'payout', amount: 10, status: 'completed', date: '2026-03-04T00:00:00.000Z' }),
      buildTransaction({ type: 'investment', amount: 500, status: 'completed', date: '2026-03-03T12:00:00.000Z' }),
      buildTransaction({ type: 'deposit', amount: 2500, status: 'failed', date: '2026-03-02T08:00:00.000Z' }),
    ];
    await openWallet(member, { 'GET /transactions': () => ({ body: transactions }) });

    const table = await within(history()).findByRole('table', { name: 'Transaction History' });
    expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Date', 'Type', 'Amount', 'Status']);
    const rows = within(table).getAllByRole('row').slice(1);
    const cells = rows.map((row) => within(row).getAllByRole('cell'));
    expect(cells.map(([date]) => date!.textContent)).toEqual(['Mar 05, 2026', 'Mar 04, 2026', 'Mar 03, 2026', 'Mar 02, 2026']);
    // The type cell repeats the date for phones, where the Date column is hidden.
    expect(cells.map(([, type]) => type!.textContent)).toEqual([
      'WithdrawalMar 05, 2026Withdrawal of 40.00 to bc1qxyz',
      'PayoutMar 04, 2026',
      'InvestmentMar 03, 2026',
      'DepositMar 02, 2026',
    ]);

    const amounts = cells.map(([, , amount]) => amount!.firstElementChild!);
    expect(amounts.map((amount) => amount.textContent)).toEqual(['-$40.00', '+$10.00', '-$500.00', '+$2,500.00']);
    expect(amounts.map((amount) => amount.className.includes('text-emerald-600'))).toEqual([false, true, false, true]);
    expect(amounts.map((amount) => amount.className.includes('text-rose-600'))).toEqual([true, false, true, false]);
    // The failed deposit moved no money: struck through.
    expect(amounts.map((amount) => amount.className.includes('line-through'))).toEqual([false, false, false, true]);

    expect(cells.map(([, , , status]) => status!.textContent)).toEqual(['Pending', 'Completed', 'Completed', 'Failed']);
    expect(cells.map(([, , , status]) => status!.querySelector('svg') !== null)).toEqual([true, false, false, false]);
  });

  it('shows the first page and Load more, which appends the next page with its cursor until none is left', async () => {
    const pageOf = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => buildTransaction({ amount: from + i, date: new Date(Date.UTC(2026, 2, 1) - (from + i) * 60_000).toISOString() }));
    const pages: Record<string, { body: Transaction[]; headers?: Record<string, string> }> = {
      '': { body: pageOf(1, 50), headers: { 'X-Next-Cursor': 'after-50' } },
      'after-50': { body: pageOf(51, 50), headers: { 'X-Next-Cursor': 'after-100' } },
      'after-100': { body: pageOf(101, 7) },
    };
    const cursors: string[] = [];
    const { user } = await openWallet(member, {
      'GET /transactions': (_body, { url }) => {
        const cursor = new URL(url).searchParams.get('cursor') ?? '';
        cursors.push(cursor);
        return pages[cursor]!;
      },
    });

    const table = await within(history()).findByRole('table', { name: 'Transaction History' });
    expect(within(table).getAllByRole('row')).toHaveLength(1 + 50);

    await user.click(within(history()).getByRole('button', { name: 'Load more' }));
    expect(await within(table).findByText('+$100.00')).toBeInTheDocument();
    expect(within(table).getAllByRole('row')).toHaveLength(1 + 100);
    // Appended, not replaced: the first page is still there, in order.
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent('+$1.00');

    await user.click(within(history()).getByRole('button', { name: 'Load more' }));
    expect(await within(table).findByText('+$107.00')).toBeInTheDocument();
    expect(within(table).getAllByRole('row')).toHaveLength(1 + 107);
    // The last page names no next one: the button is gone.
    expect(within(history()).queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(cursors).toEqual(['', 'after-50', 'after-100']);
  });

  it('shows a spinner while the history loads', async () => {
    let answer: () => void = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    await openWallet(member, {
      'GET /transactions': async () => {
        await answered;
        return { body: [buildTransaction()] };
      },
    });

    expect(within(history()).getByText('Loading transactions')).toBeInTheDocument();
    answer();
    expect(await within(history()).findByRole('table')).toBeInTheDocument();
    expect(within(history()).queryByText('Loading transactions')).not.toBeInTheDocument();
  });

  it('says "Failed to fetch transactions." in the table, not also in a toast, and tries again on request', async () => {
    let fail = true;
    const { user } = await openWallet(member, {
      'GET /transactions': () => (fail ? { status: 403, body: { message: 'Forbidden', code: 'FORBIDDEN' } } : { body: [buildTransaction()] }),
    });

    const alert = await within(history()).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to fetch transactions.');
    expect(screen.getAllByText('Failed to fetch transactions.')).toHaveLength(1);
    expect(screen.queryByText('Forbidden')).not.toBeInTheDocument();
    expect(within(history()).queryByText('No transactions found')).not.toBeInTheDocument();

    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await within(history()).findByText('+$10.00')).toBeInTheDocument();
  });
});

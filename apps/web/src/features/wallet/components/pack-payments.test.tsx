import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PackPayment, User } from '@terrafund/contracts';
import { callsTo, renderApp, signIn } from '@/testing/test-utils';
import { buildPackPayment, buildTransaction, buildUser } from '@/testing/builders';
import { stubLocationAssign, walletHandlers } from '../testing/wallet-fixtures';

const member = buildUser({ membershipLevel: 'gold', membershipStartDate: '2026-01-05T10:00:00.000Z', membershipEndDate: '2029-01-05T10:00:00.000Z' });
const newcomer = buildUser();
const checkout = 'https://pay.example.com/i/abc?key=secret';

async function openWallet(user: User, payments: PackPayment[], handlers: Parameters<typeof signIn>[1] = {}) {
  const fetchMock = signIn(user, { ...walletHandlers, 'GET /payments': () => ({ body: payments }), ...handlers });
  const app = renderApp('/wallet');
  await screen.findByRole('heading', { level: 1 }, { timeout: 8000 });
  return { ...app, fetchMock };
}

const depositTab = () => screen.getByRole('tabpanel', { name: 'Deposit' });

describe('the Deposit tab', { timeout: 20_000 }, () => {
  const payments = [
    buildPackPayment({ pack: 'gold', amount: 2500, status: 'pending', date: '2026-03-05T09:00:00.000Z', payment_url: checkout }),
    buildPackPayment({ pack: 'platinum', amount: 5000, status: 'held', date: '2026-03-04T09:00:00.000Z', paid: { amount: '0.0390625', currency: 'BTC' } }),
    buildPackPayment({ pack: 'ultimium', amount: 1200, status: 'expired', date: '2026-03-03T09:00:00.000Z' }),
    buildPackPayment({ pack: 'startium', amount: 700, status: 'settled', date: '2026-03-02T09:00:00.000Z', paid: { amount: '700.00', currency: 'USD' } }),
  ];

  it('is the default tab and lists every pack payment with pack, amount, date and status, newest first', async () => {
    await openWallet(member, payments);

    expect(screen.getByRole('tab', { name: 'Deposit' })).toHaveAttribute('aria-selected', 'true');
    const table = await within(depositTab()).findByRole('table', { name: 'Pack payments' });
    const rows = within(table).getAllByRole('row').slice(1);
    const cells = rows.map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent));
    expect(cells.map(([pack, amount, date, status]) => [pack, amount, date, status])).toEqual([
      ['GoldMar 05, 2026', '$2,500.00', 'Mar 05, 2026', 'Pending'],
      // A held payment shows what arrived beside the price; a settled one needs no such line.
      ['PlatinumMar 04, 2026', '$5,000.00Received 0.0390625 BTC', 'Mar 04, 2026', 'Held for review'],
      ['UltimiumMar 03, 2026', '$1,200.00', 'Mar 03, 2026', 'Expired'],
      ['StartiumMar 02, 2026', '$700.00', 'Mar 02, 2026', 'Settled'],
    ]);
    // A pending payment leads back to its checkout; only it.
    expect(within(rows[0]!).getByRole('link', { name: 'Continue payment for Gold' })).toHaveAttribute('href', checkout);
    expect(within(table).getAllByRole('link')).toHaveLength(1);
  });

  it('offers to start an expired payment again: the same pack, a new checkout', async () => {
    const assign = stubLocationAssign();
    const next = 'https://pay.example.com/i/new';
    const { user, fetchMock } = await openWallet(member, payments, {
      'POST /transactions': () => ({
        status: 201,
        body: { transaction: buildTransaction({ type: 'deposit', amount: 1200, status: 'pending', plan: 'ultimium' }), payment_url: next },
      }),
    });

    await user.click(await within(depositTab()).findByRole('button', { name: 'Start again: buy Ultimium' }));

    await waitFor(() => expect(assign).toHaveBeenCalledWith(next));
    expect(callsTo(fetchMock, 'POST', '/transactions')).toEqual([{ type: 'deposit', plan: 'ultimium' }]);
  });

  it('is there without an active pack, so a first payment that expired is still seen', async () => {
    await openWallet(newcomer, [buildPackPayment({ pack: 'gold', status: 'expired' })]);

    expect(screen.getByRole('heading', { level: 1, name: 'Choose New Plan' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Deposit' })).toHaveAttribute('aria-selected', 'true');
    const table = await within(depositTab()).findByRole('table', { name: 'Pack payments' });
    expect(within(table).getByText('Expired')).toBeInTheDocument();
    expect(within(table).getByRole('button', { name: 'Start again: buy Gold' })).toBeInTheDocument();
  });

  it('says when there are none, and shows a failure with Try again', async () => {
    let fail = true;
    const { user } = await openWallet(member, [], {
      'GET /payments': () => (fail ? { status: 500, body: { message: 'Boom', code: 'INTERNAL' } } : { body: [] }),
    });

    const alert = await within(depositTab()).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load your pack payments.');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await within(depositTab()).findByText('No pack payments yet')).toBeInTheDocument();
  });
});

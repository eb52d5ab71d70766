import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Dashboard, User } from '@terrafund/contracts';
import { callsTo, expectToast, renderApp, signIn } from '@/testing/test-utils';
import { buildTransaction, buildUser } from '@/testing/builders';
import { walletHandlers } from '../testing/wallet-fixtures';

const verified = buildUser({ balance: 100, membershipLevel: 'gold', kycStatus: 'approved', kycVerified: true });

async function openWithdraw(member: User = verified, handlers: Parameters<typeof signIn>[1] = {}) {
  const fetchMock = signIn(member, { ...walletHandlers, ...handlers });
  const app = renderApp('/wallet');
  await app.user.click(await screen.findByRole('button', { name: 'Withdraw' }, { timeout: 8000 }));
  const panel = await screen.findByRole('dialog', { name: 'Withdraw' });
  return { ...app, fetchMock, panel };
}

const address = () => screen.getByLabelText('Wallet address');
const amount = () => screen.getByLabelText('Amount');
const submit = () => screen.getByRole('button', { name: 'Request withdrawal' });
const toastsWith = (text: string) =>
  screen.queryAllByRole('status').filter((element) => element.getAttribute('aria-live') === 'polite' && element.textContent === text);

describe('withdraw panel', { timeout: 20_000 }, () => {
  it('opens as a labelled panel with the balance, the minimum, the fee and the delay, focused on the address', async () => {
    const { panel } = await openWithdraw();

    expect(panel).toHaveAttribute('aria-modal', 'true');
    expect(panel).toHaveAccessibleDescription('Available for withdrawal: $100.00');
    expect(within(panel).getByText('Minimum withdrawal: 25 Crypto')).toBeInTheDocument();
    expect(within(panel).getByText('Network fee: 1 Crypto')).toBeInTheDocument();
    expect(within(panel).getByText('Withdrawals are processed within 24 hours.')).toBeInTheDocument();
    expect(address()).toHaveFocus();
  });

  it('keeps Tab inside, closes on Escape and gives focus back to Withdraw', async () => {
    const { user, panel } = await openWithdraw();

    await user.tab({ shift: true });
    expect(within(panel).getByRole('button', { name: 'Close' })).toHaveFocus();
    await user.tab({ shift: true });
    expect(submit()).toHaveFocus();
    await user.tab();
    expect(within(panel).getByRole('button', { name: 'Close' })).toHaveFocus();

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Withdraw' })).toHaveFocus();
  });

  it('checks every rule in the browser before asking, with the spec messages', async () => {
    const { user, fetchMock } = await openWithdraw();

    await user.click(submit());
    expect(await screen.findByText('Please enter your wallet address')).toBeInTheDocument();
    expect(address()).toHaveAccessibleDescription('Please enter your wallet address');
    expect(amount()).toHaveAccessibleDescription('Please enter a valid amount');

    await user.type(address(), 'bc1qxyz');
    for (const [typed, message] of [
      ['abc', 'Please enter a valid amount'],
      ['0', 'Please enter a valid amount'],
      ['24.99', 'Minimum withdrawal amount is 25 Crypto'],
      ['100.01', 'Insufficient balance'],
    ] as const) {
      await user.clear(amount());
      await user.type(amount(), typed);
      await user.click(submit());
      await waitFor(() => expect(amount()).toHaveAccessibleDescription(message));
    }
    expect(address()).not.toHaveAccessibleDescription('Please enter your wallet address');
    expect(callsTo(fetchMock, 'POST', '/transactions')).toHaveLength(0);
  });

  it('requests the withdrawal, toasts it, closes, and fetches the balance, the history and the dashboard again', async () => {
    let current = verified;
    const { user, fetchMock, queryClient } = await openWithdraw(verified, {
      'GET /users/profile': () => ({ body: current }),
      'POST /transactions': (body) => {
        const { amount: requested } = body as { amount: number };
        current = { ...current, balance: current.balance - requested };
        return { status: 201, body: { transaction: buildTransaction({ type: 'withdrawal', amount: requested, status: 'pending' }) } };
      },
    });
    // The dashboard's figures, as a visit to /dashboard would have left them.
    const dashboard: Dashboard = { totalAssets: 2600, walletBalance: 100, membership: 'gold', nextPayout: null, currentMembership: null };
    queryClient.setQueryData(['users', 'dashboard'], dashboard);
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/transactions')).toHaveLength(1));
    const profileCallsBefore = callsTo(fetchMock, 'GET', '/users/profile').length;

    await user.type(address(), '  bc1qxyz  ');
    await user.type(amount(), '40');
    await user.click(submit());

    await expectToast('Your withdrawal of 40 Crypto is being processed');
    expect(callsTo(fetchMock, 'POST', '/transactions')).toEqual([{ type: 'withdrawal', amount: 40, walletAddress: 'bc1qxyz' }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(callsTo(fetchMock, 'GET', '/users/profile')).toHaveLength(profileCallsBefore + 1);
    expect(callsTo(fetchMock, 'GET', '/transactions')).toHaveLength(2);
    expect(queryClient.getQueryState(['users', 'dashboard'])?.isInvalidated).toBe(true);
    expect(within(screen.getByRole('group', { name: 'Wallet balance' })).getByText('$60.00')).toBeInTheDocument();

    // Opened again, the form starts empty.
    await user.click(screen.getByRole('button', { name: 'Withdraw' }));
    expect(address()).toHaveValue('');
    expect(amount()).toHaveValue('');
  });

  it.each([
    ['Insufficient balance', 'amount', { fields: { amount: 'Insufficient balance' } }],
    ['Please enter a valid wallet address', 'walletAddress', { fields: { walletAddress: 'Please enter a valid wallet address' } }],
    ['Minimum withdrawal amount is 25 Crypto', 'amount', {}],
  ])('puts the server refusal "%s" under its field, without a toast', async (message, field, extra) => {
    const { user } = await openWithdraw(verified, {
      'POST /transactions': () => ({ status: 400, body: { message, code: 'VALIDATION_ERROR', ...extra } }),
    });

    await user.type(address(), 'bc1qxyz');
    await user.type(amount(), '30');
    await user.click(submit());

    await waitFor(() => expect(field === 'amount' ? amount() : address()).toHaveAccessibleDescription(message));
    expect(toastsWith(message)).toHaveLength(0);
    expect(screen.getByRole('dialog', { name: 'Withdraw' })).toBeInTheDocument();
  });

  it.each([
    ['the server message', { status: 403, body: { message: 'Please complete your KYC verification before withdrawing', code: 'FORBIDDEN' } }, 'Please complete your KYC verification before withdrawing'],
    ['"Failed to process withdrawal." without one', { status: 500 }, 'Failed to process withdrawal.'],
  ])('toasts %s, once, for a refusal about no field', async (_case, reply, message) => {
    const { user } = await openWithdraw(verified, { 'POST /transactions': () => reply });

    await user.type(address(), 'bc1qxyz');
    await user.type(amount(), '30');
    await user.click(submit());

    await expectToast(message);
    expect(toastsWith(message)).toHaveLength(1);
    expect(screen.getByRole('dialog', { name: 'Withdraw' })).toBeInTheDocument();
    expect(submit()).toBeEnabled();
  });
});

describe('withdraw panel without approved KYC', { timeout: 20_000 }, () => {
  it.each([
    ['not_started', 'Complete KYC now'],
    ['pending', 'View verification status'],
    ['rejected', 'Review and resubmit'],
  ] as const)('%s: says why, links to /kyc and shows no form', async (kycStatus, action) => {
    const { user, panel, router } = await openWithdraw(buildUser({ balance: 100, membershipLevel: 'gold', kycStatus }));

    expect(within(panel).getByText('Please complete your KYC verification before withdrawing')).toBeInTheDocument();
    expect(within(panel).queryByLabelText('Wallet address')).not.toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: 'Request withdrawal' })).not.toBeInTheDocument();

    await user.click(within(panel).getByRole('link', { name: action }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/kyc'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});

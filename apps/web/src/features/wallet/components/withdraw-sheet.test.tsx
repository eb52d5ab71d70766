import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Dashboard, User } from '@terrafund/contracts';
import { callsTo, expectToast, renderApp, signIn } from '@/testing/test-utils';
import { buildTransaction, buildUser } from '@/testing/builders';
import { walletHandlers } from '../testing/wallet-fixtures';

const verified = buildUser({ balance: 100, membershipLevel: 'gold', kycStatus: 'approved', kycVerified: true });
const BTC = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

async function openWithdraw(member: User = verified, handlers: Parameters<typeof signIn>[1] = {}) {
  const fetchMock = signIn(member, { ...walletHandlers, ...handlers });
  const app = renderApp('/wallet');
  await app.user.click(await screen.findByRole('button', { name: 'Withdraw' }, { timeout: 8000 }));
  const panel = await screen.findByRole('dialog', { name: 'Withdraw' });
  await within(panel).findByLabelText('Wallet address');
  return { ...app, fetchMock, panel };
}

const coin = () => screen.getByRole('combobox', { name: 'Coin' });
const address = () => screen.getByLabelText('Wallet address');
const amount = () => screen.getByLabelText('Amount (USD)');
const password = () => screen.getByLabelText('Password');
const submit = () => screen.getByRole('button', { name: 'Request withdrawal' });
const received = () => within(screen.getByText('You receive').parentElement!).getByRole('definition');
const toastsWith = (text: string) =>
  screen.queryAllByRole('status').filter((element) => element.getAttribute('aria-live') === 'polite' && element.textContent === text);

/** Fills a valid request to the Bitcoin address, with the password. */
async function fillValid(user: Awaited<ReturnType<typeof openWithdraw>>['user'], value = '30') {
  await user.type(address(), BTC);
  await user.type(amount(), value);
  await user.type(password(), 'my-password');
}

describe('withdraw panel', { timeout: 20_000 }, () => {
  it('opens as a labelled panel: the balance, the configured coins with their networks, the fee, the minimum; focus on the address', async () => {
    const { panel } = await openWithdraw();

    expect(panel).toHaveAttribute('aria-modal', 'true');
    expect(panel).toHaveAccessibleDescription('Available for withdrawal: $100.00');
    expect(coin()).toHaveValue('BTC');
    expect(within(coin()).getAllByRole('option').map((option) => option.textContent)).toEqual(['Bitcoin', 'Ether on Ethereum', 'Tether on Tron']);
    expect(coin()).toHaveAccessibleDescription('Sent on the Bitcoin network.');
    expect(within(panel).getByText('Network fee').nextElementSibling).toHaveTextContent('$1.00');
    expect(received()).toHaveTextContent('—');
    expect(within(panel).getByText('Minimum withdrawal: $25.00.')).toBeInTheDocument();
    expect(within(panel).getByText('Daily limit: $10,000.00.')).toBeInTheDocument();
    expect(password()).toHaveAttribute('autocomplete', 'current-password');
    expect(within(panel).queryByLabelText('Authentication code')).not.toBeInTheDocument();
    expect(address()).toHaveFocus();
  });

  it('keeps Tab inside, closes on Escape and gives focus back to Withdraw', async () => {
    const { user, panel } = await openWithdraw();

    await user.tab({ shift: true });
    expect(coin()).toHaveFocus();
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

  it('checks the address for the chosen coin as it is typed, and again when the coin changes', async () => {
    const { user, fetchMock } = await openWithdraw();

    await user.type(address(), 'bc1qxyz');
    await waitFor(() => expect(address()).toHaveAccessibleDescription('Please enter a valid Bitcoin address'));
    await user.clear(address());
    await user.type(address(), BTC);
    await waitFor(() => expect(address()).not.toHaveAttribute('aria-invalid'));

    // A Bitcoin address is no Tron address: choosing Tether on Tron says so at once.
    await user.selectOptions(coin(), 'USDT-TRC20');
    await waitFor(() => expect(address()).toHaveAccessibleDescription('Please enter a valid Tether address'));
    expect(coin()).toHaveAccessibleDescription('Sent on the Tron network.');
    await user.clear(address());
    await user.type(address(), TRON);
    await waitFor(() => expect(address()).not.toHaveAttribute('aria-invalid'));
    expect(callsTo(fetchMock, 'POST', '/transactions')).toHaveLength(0);
  });

  it('shows what arrives once the fee is kept, as the amount is typed', async () => {
    const { user } = await openWithdraw();

    await user.type(amount(), '40');
    expect(received()).toHaveTextContent('$39.00 in Bitcoin');
    await user.selectOptions(coin(), 'ETH');
    expect(received()).toHaveTextContent('$39.00 in Ether');
    await user.clear(amount());
    expect(received()).toHaveTextContent('—');
  });

  it('checks every rule in the browser before asking, with the spec messages', async () => {
    const { user, fetchMock } = await openWithdraw();

    await user.click(submit());
    expect(await screen.findByText('Please enter your wallet address')).toBeInTheDocument();
    expect(address()).toHaveAccessibleDescription('Please enter your wallet address');
    expect(amount()).toHaveAccessibleDescription('Please enter a valid amount');
    expect(password()).toHaveAccessibleDescription('Password is required');

    await user.type(address(), BTC);
    await user.type(password(), 'my-password');
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
    expect(callsTo(fetchMock, 'POST', '/transactions')).toHaveLength(0);
  });

  it('requests a withdrawal to a confirmed address with the password, toasts it, closes, and fetches the balance, the history and the dashboard again', async () => {
    let current = verified;
    const { user, fetchMock, queryClient } = await openWithdraw(verified, {
      'GET /users/profile': () => ({ body: current }),
      'POST /transactions': (body) => {
        const { amount: requested } = body as { amount: number };
        current = { ...current, balance: current.balance - requested };
        const transaction = buildTransaction({ type: 'withdrawal', amount: requested, status: 'pending', walletAddress: BTC });
        return { status: 201, body: { transaction: { ...transaction, asset: 'BTC', awaitingConfirmation: false, stage: 'awaiting_approval' } } };
      },
    });
    // The dashboard's figures, as a visit to /dashboard would have left them.
    const dashboard: Dashboard = { totalAssets: 2600, walletBalance: 100, membership: 'gold', nextPayout: null, currentMembership: null };
    queryClient.setQueryData(['users', 'dashboard'], dashboard);
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/transactions')).toHaveLength(1));
    const profileCallsBefore = callsTo(fetchMock, 'GET', '/users/profile').length;

    await user.type(address(), `  ${BTC}  `);
    await user.type(amount(), '40');
    await user.type(password(), 'my-password');
    await user.click(submit());

    await expectToast('Your withdrawal of 40 Crypto is being processed');
    expect(callsTo(fetchMock, 'POST', '/transactions')).toEqual([
      { type: 'withdrawal', amount: 40, walletAddress: BTC, asset: 'BTC', password: 'my-password' },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(callsTo(fetchMock, 'GET', '/users/profile')).toHaveLength(profileCallsBefore + 1);
    expect(callsTo(fetchMock, 'GET', '/transactions')).toHaveLength(2);
    expect(queryClient.getQueryState(['users', 'dashboard'])?.isInvalidated).toBe(true);
    expect(within(screen.getByRole('group', { name: 'Wallet balance' })).getByText('$60.00')).toBeInTheDocument();

    // Opened again, the form starts empty, on the first coin.
    await user.click(screen.getByRole('button', { name: 'Withdraw' }));
    expect(address()).toHaveValue('');
    expect(amount()).toHaveValue('');
    expect(password()).toHaveValue('');
    expect(coin()).toHaveValue('BTC');
  });

  it('tells the member to confirm a new address from the mail, in the panel and in a toast', async () => {
    const { user } = await openWithdraw(verified, {
      'POST /transactions': () => {
        const transaction = buildTransaction({ type: 'withdrawal', amount: 30, status: 'pending', walletAddress: BTC });
        return { status: 201, body: { transaction: { ...transaction, asset: 'BTC', awaitingConfirmation: true, stage: 'awaiting_confirmation' } } };
      },
    });

    await fillValid(user);
    await user.click(submit());

    const panel = screen.getByRole('dialog', { name: 'Withdraw' });
    expect(await within(panel).findByRole('heading', { name: 'Check your mailbox' })).toBeInTheDocument();
    expect(within(panel).getByText('Check your mailbox: follow the link we sent to confirm this new address.')).toBeInTheDocument();
    expect(within(panel).getByText(BTC)).toBeInTheDocument();
    await expectToast('Check your mailbox: follow the link we sent to confirm this new address.');
    expect(within(panel).queryByRole('button', { name: 'Request withdrawal' })).not.toBeInTheDocument();

    await user.click(within(panel).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('asks a member with two-factor authentication for the 6-digit code instead of the password', async () => {
    const { user, fetchMock, panel } = await openWithdraw(buildUser({ ...verified, twoFactorEnabled: true }), {
      'POST /transactions': () => ({ status: 400, body: { message: 'Invalid code', code: 'VALIDATION_ERROR', fields: { code: 'Invalid code' } } }),
    });
    expect(within(panel).queryByLabelText('Password')).not.toBeInTheDocument();
    const code = within(panel).getByLabelText('Authentication code');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');

    await user.type(address(), BTC);
    await user.type(amount(), '30');
    await user.click(submit());
    await waitFor(() => expect(code).toHaveAccessibleDescription('Please enter the 6-digit code from your authenticator app'));

    await user.type(code, '123456');
    await user.click(submit());
    await waitFor(() => expect(code).toHaveAccessibleDescription('Invalid code'));
    expect(callsTo(fetchMock, 'POST', '/transactions')).toEqual([{ type: 'withdrawal', amount: 30, walletAddress: BTC, asset: 'BTC', code: '123456' }]);
    expect(toastsWith('Invalid code')).toHaveLength(0);
  });

  it.each([
    ['Insufficient balance', 'amount', { fields: { amount: 'Insufficient balance' } }],
    ['Daily withdrawal limit reached', 'amount', { fields: { amount: 'Daily withdrawal limit reached' } }],
    ['Please enter a valid Bitcoin address', 'walletAddress', { fields: { walletAddress: 'Please enter a valid Bitcoin address' } }],
    ['Incorrect password', 'password', { fields: { password: 'Incorrect password' } }],
    ['Minimum withdrawal amount is 25 Crypto', 'amount', {}],
  ])('puts the server refusal "%s" under its field, without a toast', async (message, field, extra) => {
    const { user } = await openWithdraw(verified, {
      'POST /transactions': () => ({ status: 400, body: { message, code: 'VALIDATION_ERROR', ...extra } }),
    });

    await fillValid(user);
    await user.click(submit());

    const target = field === 'amount' ? amount() : field === 'password' ? password() : address();
    await waitFor(() => expect(target).toHaveAccessibleDescription(message));
    expect(toastsWith(message)).toHaveLength(0);
    expect(screen.getByRole('dialog', { name: 'Withdraw' })).toBeInTheDocument();
  });

  it.each([
    ['the server message', { status: 403, body: { message: 'Please complete your KYC verification before withdrawing', code: 'FORBIDDEN' } }, 'Please complete your KYC verification before withdrawing'],
    ['the rate limit', { status: 429, body: { message: 'Too many attempts. Please try again later.', code: 'RATE_LIMITED' } }, 'Too many attempts. Please try again later.'],
    ['"Failed to process withdrawal." without one', { status: 500 }, 'Failed to process withdrawal.'],
  ])('toasts %s, once, for a refusal about no field', async (_case, reply, message) => {
    const { user } = await openWithdraw(verified, { 'POST /transactions': () => reply });

    await fillValid(user);
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
    const fetchMock = signIn(buildUser({ balance: 100, membershipLevel: 'gold', kycStatus }), walletHandlers);
    const { user, router } = renderApp('/wallet');
    await user.click(await screen.findByRole('button', { name: 'Withdraw' }, { timeout: 8000 }));
    const panel = await screen.findByRole('dialog', { name: 'Withdraw' });

    expect(within(panel).getByText('Please complete your KYC verification before withdrawing')).toBeInTheDocument();
    expect(within(panel).queryByLabelText('Wallet address')).not.toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: 'Request withdrawal' })).not.toBeInTheDocument();

    await user.click(within(panel).getByRole('link', { name: action }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/kyc'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(callsTo(fetchMock, 'POST', '/transactions')).toHaveLength(0);
  });
});

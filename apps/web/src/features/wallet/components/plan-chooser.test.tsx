import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { User } from '@terrafund/contracts';
import { callsTo, expectToast, type signIn } from '@/testing/test-utils';
import { buildTransaction, buildUser } from '@/testing/builders';
import { config, openWalletAs, plans, stubLocationAssign } from '../testing/wallet-fixtures';

const newcomer = buildUser({ balance: 42.5 });
const paymentUrl = 'https://pay.example.com/i/inv_123';

const openWallet = (member: User = newcomer, handlers: Parameters<typeof signIn>[1] = {}) => openWalletAs(member, handlers);

const depositButton = () => screen.getByRole('button', { name: 'Deposit' });
const toastsWith = (text: string) =>
  screen.queryAllByRole('status').filter((element) => element.getAttribute('aria-live') === 'polite' && element.textContent === text);

describe('plan chooser', { timeout: 20_000 }, () => {
  it('without a membership: "Choose New Plan", no way back, the balance and the four packs with their figures', async () => {
    await openWallet();

    expect(screen.getByRole('heading', { level: 1, name: 'Choose New Plan' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Back to Wallet' })).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Subscribe to a plan' })).toBeInTheDocument();
    expect(screen.getByText('$42.50')).toBeInTheDocument();

    const radios = await screen.findAllByRole('radio');
    expect(radios.map((radio) => radio.getAttribute('value'))).toEqual(['startium', 'ultimium', 'gold', 'platinum']);
    const gold = screen.getByRole('radio', { name: 'Gold' });
    const goldCard = gold.closest('label')!;
    for (const text of ['Premium investment experience', '$2,500.00', '$10.00', '$2,600.00', '104%', ...plans[2]!.features]) {
      expect(within(goldCard).getByText(text)).toBeInTheDocument();
    }
    expect(gold).toHaveAccessibleDescription(expect.stringContaining('$2,500.00'));
    // Only the popular pack carries the badge.
    expect(within(goldCard).getByText('Popular')).toBeInTheDocument();
    expect(screen.getAllByText('Popular')).toHaveLength(1);

    expect(screen.getByText('Deposits are typically credited within 10-30 minutes.')).toBeInTheDocument();
    // No fixed deposit address: packs are paid only through the provider's checkout.
    expect(screen.queryByText(/deposit address/i)).not.toBeInTheDocument();
    expect(screen.queryByText(/only send crypto/i)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /copy/i })).not.toBeInTheDocument();
    expect(await screen.findByRole('link', { name: config.contactEmail })).toHaveAttribute('href', `mailto:${config.contactEmail}`);
  });

  it('keeps Deposit disabled until a pack is chosen; a click or the arrow keys choose one', async () => {
    const { user } = await openWallet();
    await screen.findAllByRole('radio');
    expect(depositButton()).toBeDisabled();

    await user.click(screen.getByText('Smart choice for active investors'));
    expect(screen.getByRole('radio', { name: 'Ultimium' })).toBeChecked();
    expect(depositButton()).toBeEnabled();

    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('radio', { name: 'Gold' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Ultimium' })).not.toBeChecked();
    expect(screen.getByRole('radio', { name: 'Gold' })).toHaveFocus();
  });

  it('Deposit asks for the chosen pack and sends the browser to the payment page', async () => {
    const assign = stubLocationAssign();
    const { user, fetchMock, queryClient } = await openWallet(newcomer, {
      'POST /transactions': () => ({
        status: 201,
        body: { transaction: buildTransaction({ type: 'deposit', amount: 2500, status: 'pending', plan: 'gold' }), payment_url: paymentUrl },
      }),
    });

    await user.click(await screen.findByRole('radio', { name: 'Gold' }));
    await user.click(depositButton());

    await waitFor(() => expect(assign).toHaveBeenCalledWith(paymentUrl));
    expect(callsTo(fetchMock, 'POST', '/transactions')).toEqual([{ type: 'deposit', plan: 'gold' }]);
    expect(assign).toHaveBeenCalledTimes(1);
    // Still busy while the browser leaves, so it cannot be pressed twice.
    expect(depositButton()).toBeDisabled();

    // Back from the checkout, restored from the back-forward cache: ready again.
    await waitFor(() => expect(queryClient.getMutationCache().getAll().map((m) => m.state.status)).toEqual(['success']));
    window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    await waitFor(() => expect(depositButton()).toBeEnabled());
    expect(screen.getByRole('radio', { name: 'Gold' })).toBeChecked();
  });

  it.each([
    ['the server message', { status: 409, body: { message: 'You already have a payment in progress for this plan', code: 'CONFLICT' } }, 'You already have a payment in progress for this plan'],
    ['"Failed to process deposit." without one', { status: 502 }, 'Failed to process deposit.'],
    ['"Failed to process deposit." for a payment address that is not a web page', { status: 201, body: { transaction: buildTransaction(), payment_url: 'javascript:alert(1)' } }, 'Failed to process deposit.'],
  ])('a failed deposit shows %s, once, and stays on the page', async (_case, reply, message) => {
    const assign = stubLocationAssign();
    const { user } = await openWallet(newcomer, { 'POST /transactions': () => reply });

    await user.click(await screen.findByRole('radio', { name: 'Platinum' }));
    await user.click(depositButton());

    await expectToast(message);
    expect(toastsWith(message)).toHaveLength(1);
    expect(assign).not.toHaveBeenCalled();
    expect(depositButton()).toBeEnabled();
    expect(screen.getByRole('radio', { name: 'Platinum' })).toBeChecked();
  });

  it('shows why the plans are missing, with a way to try again', async () => {
    let fail = true;
    const { user } = await openWallet(newcomer, {
      'GET /plans': () => (fail ? { status: 404, body: { message: 'Route GET /api/plans not found', code: 'NOT_FOUND' } } : { body: plans }),
    });

    expect(await screen.findByText('The plans could not be loaded.')).toBeInTheDocument();
    expect(screen.getByText('Route GET /api/plans not found')).toBeInTheDocument();
    expect(depositButton()).toBeDisabled();

    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findAllByRole('radio')).toHaveLength(4);
  });
});

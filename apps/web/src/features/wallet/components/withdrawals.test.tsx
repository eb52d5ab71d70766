import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Transaction, TransactionDetail } from '@terrafund/contracts';
import { callsTo, expectToast, mockApi, renderApp, signIn } from '@/testing/test-utils';
import { buildTransaction, buildUser } from '@/testing/builders';
import { openWalletAs } from '../testing/wallet-fixtures';

const member = buildUser({ balance: 70, membershipLevel: 'gold', kycStatus: 'approved', kycVerified: true });
const BTC = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const HASH = 'ef'.repeat(32);

const withdrawal = (overrides: Partial<Transaction>) =>
  buildTransaction({ type: 'withdrawal', status: 'pending', amount: 30, asset: 'BTC', network: 'Bitcoin', fee: 1, receiveAmount: 29, walletAddress: BTC, ...overrides });

describe('pending withdrawals on the wallet', { timeout: 20_000 }, () => {
  it('lists each pending withdrawal with what it waits for; Cancel asks first, then returns the amount and fetches the wallet again', async () => {
    const unconfirmed = withdrawal({ amount: 30, stage: 'awaiting_confirmation', awaitingConfirmation: true, date: '2026-03-02T10:00:00.000Z' });
    const awaiting = withdrawal({ amount: 40, asset: 'USDT-TRC20', network: 'Tron', walletAddress: TRON, stage: 'awaiting_approval' });
    const sent = withdrawal({ amount: 50, stage: 'sent' });
    const done = withdrawal({ amount: 60, status: 'completed', stage: 'completed' });
    let history: Transaction[] = [unconfirmed, awaiting, sent, done];
    let current = member;
    const { user, fetchMock } = await openWalletAs(member, {
      'GET /users/profile': () => ({ body: current }),
      'GET /transactions': () => ({ body: history }),
      [`POST /transactions/${unconfirmed._id}/cancel`]: () => {
        const cancelled = { ...unconfirmed, status: 'failed' as const, stage: 'cancelled' as const };
        history = [cancelled, awaiting, sent, done];
        current = { ...current, balance: current.balance + 30 };
        return { body: cancelled };
      },
    });

    const list = await screen.findByRole('list', { name: 'Pending withdrawals' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items[0]).toHaveTextContent('$30.00 · Bitcoin');
    expect(items[0]).toHaveTextContent('Waiting for your confirmation');
    expect(items[1]).toHaveTextContent('$40.00 · Tether on Tron');
    expect(items[1]).toHaveTextContent(TRON);
    expect(items[1]).toHaveTextContent('Waiting for approval');
    // Handed to the provider: no longer the member's to take back.
    expect(items[2]).toHaveTextContent('Sent');
    expect(within(items[2]!).queryByRole('button', { name: /^Cancel/ })).not.toBeInTheDocument();

    await user.click(within(items[0]!).getByRole('button', { name: /^Cancel the withdrawal of \$30\.00/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this withdrawal?' });
    expect(dialog).toHaveAccessibleDescription('$30.00 returns to your wallet balance at once.');
    await user.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', `/transactions/${unconfirmed._id}/cancel`)).toHaveLength(0);

    await user.click(within(items[0]!).getByRole('button', { name: /^Cancel the withdrawal of \$30\.00/ }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Cancel this withdrawal?' })).getByRole('button', { name: 'Cancel withdrawal' }));

    await expectToast('Withdrawal cancelled. The amount is back in your wallet.');
    expect(callsTo(fetchMock, 'POST', `/transactions/${unconfirmed._id}/cancel`)).toHaveLength(1);
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Pending withdrawals' })).getAllByRole('listitem')).toHaveLength(2));
    expect(within(screen.getByRole('group', { name: 'Wallet balance' })).getByText('$100.00')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("toasts the server's refusal when the withdrawal was sent meanwhile, and shows where it is now", async () => {
    const awaiting = withdrawal({ stage: 'awaiting_approval' });
    let history: Transaction[] = [awaiting];
    const { user } = await openWalletAs(member, {
      'GET /transactions': () => ({ body: history }),
      [`POST /transactions/${awaiting._id}/cancel`]: () => {
        history = [{ ...awaiting, stage: 'sent' }];
        return { status: 409, body: { message: 'This withdrawal can no longer be cancelled', code: 'CONFLICT' } };
      },
    });

    await user.click(await screen.findByRole('button', { name: /^Cancel the withdrawal of/ }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Cancel this withdrawal?' })).getByRole('button', { name: 'Cancel withdrawal' }));

    await expectToast('This withdrawal can no longer be cancelled');
    const list = screen.getByRole('list', { name: 'Pending withdrawals' });
    await waitFor(() => expect(within(list).getByText('Sent')).toBeInTheDocument());
    expect(within(list).queryByRole('button', { name: /^Cancel/ })).not.toBeInTheDocument();
  });

  it('shows no pending section without a pending withdrawal', async () => {
    await openWalletAs(member, { 'GET /transactions': () => ({ body: [withdrawal({ status: 'completed', stage: 'completed' })] }) });
    await screen.findByRole('table', { name: 'Transaction History' });
    expect(screen.queryByRole('list', { name: 'Pending withdrawals' })).not.toBeInTheDocument();
  });
});

describe('following a withdrawal', { timeout: 20_000 }, () => {
  it('shows the coin, what arrives, every step with its reason, and the hash with its block-explorer link', async () => {
    const paid = withdrawal({ status: 'completed', stage: 'completed', txHash: HASH });
    const detail: TransactionDetail = {
      ...paid,
      timeline: [
        { status: 'requested', at: '2026-03-02T10:00:00.000Z' },
        { status: 'confirmed', at: '2026-03-02T10:05:00.000Z' },
        { status: 'approved', at: '2026-03-02T11:00:00.000Z' },
        { status: 'approved', at: '2026-03-02T11:30:00.000Z' },
        { status: 'sent', at: '2026-03-02T11:30:01.000Z' },
        { status: 'completed', at: '2026-03-02T11:40:00.000Z', txHash: HASH },
      ],
    };
    const { user } = await openWalletAs(member, {
      'GET /transactions': () => ({ body: [paid] }),
      [`GET /transactions/${paid._id}`]: () => ({ body: detail }),
    });

    await user.click(await screen.findByRole('button', { name: /^Track withdrawal/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Withdrawal details' });
    const steps = within(await within(dialog).findByRole('list', { name: 'Timeline' })).getAllByRole('listitem');
    expect(steps.map((step) => step.querySelector('p')?.textContent)).toEqual([
      'Requested',
      'Confirmed by you',
      'Approved',
      'Approved',
      'Sent to the network',
      'Completed',
    ]);
    expect(within(dialog).getByText('Bitcoin', { selector: 'dd' })).toBeInTheDocument();
    expect(within(dialog).getByText('$29.00')).toBeInTheDocument();
    expect(steps[5]).toHaveTextContent(`Transaction hash: ${HASH}`);
    const explorer = within(steps[5]!).getByRole('link', { name: /View on the block explorer/ });
    expect(explorer).toHaveAttribute('href', `https://mempool.space/tx/${HASH}`);
    expect(explorer).toHaveAttribute('target', '_blank');
  });

  it('shows why a withdrawal was cancelled or failed', async () => {
    const cancelled = withdrawal({ status: 'failed', stage: 'cancelled' });
    const { user } = await openWalletAs(member, {
      'GET /transactions': () => ({ body: [cancelled] }),
      [`GET /transactions/${cancelled._id}`]: () => ({
        body: {
          ...cancelled,
          timeline: [
            { status: 'requested', at: '2026-03-02T10:00:00.000Z' },
            { status: 'cancelled', at: '2026-03-02T10:01:00.000Z', reason: 'Cancelled by you' },
          ],
        },
      }),
    });

    await user.click(await screen.findByRole('button', { name: /^Track withdrawal/ }));
    const timeline = await within(await screen.findByRole('dialog', { name: 'Withdrawal details' })).findByRole('list', { name: 'Timeline' });
    const steps = within(timeline).getAllByRole('listitem');
    expect(steps[1]).toHaveTextContent('Cancelled');
    expect(steps[1]).toHaveTextContent('Cancelled by you');
  });
});

describe('the confirmation link', { timeout: 20_000 }, () => {
  it('confirms the withdrawal once, without a session, and shows its amount, coin and address', async () => {
    const confirmed = withdrawal({ stage: 'awaiting_approval', awaitingConfirmation: false });
    const fetchMock = mockApi({ 'POST /withdrawals/confirm': () => ({ body: confirmed }) });
    renderApp('/wallet/withdrawals/confirm?token=tok-123');

    expect(await screen.findByRole('heading', { level: 1, name: 'Withdrawal confirmed' }, { timeout: 8000 })).toBeInTheDocument();
    expect(screen.getByText('Withdrawal confirmed. It will be sent once approved.')).toBeInTheDocument();
    expect(screen.getByText('$30.00')).toBeInTheDocument();
    expect(screen.getByText('$29.00')).toBeInTheDocument();
    expect(screen.getByText('Bitcoin')).toBeInTheDocument();
    expect(screen.getByText(BTC)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to your wallet' })).toHaveAttribute('href', '/wallet');
    expect(callsTo(fetchMock, 'POST', '/withdrawals/confirm')).toEqual([{ token: 'tok-123' }]);
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
  });

  it.each([
    ['used or unknown', 'This confirmation link is invalid or has already been used'],
    ['expired', 'This confirmation link has expired. The amount is back in your wallet.'],
  ])("shows the server's refusal of a %s link", async (_case, message) => {
    mockApi({ 'POST /withdrawals/confirm': () => ({ status: 400, body: { message, code: 'VALIDATION_ERROR', fields: { token: message } } }) });
    renderApp('/wallet/withdrawals/confirm?token=tok-old');

    expect(await screen.findByRole('heading', { level: 1, name: 'This link cannot be used' }, { timeout: 8000 })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(message);
  });

  it('asks nothing for a link without its token', async () => {
    const fetchMock = mockApi({});
    renderApp('/wallet/withdrawals/confirm');

    expect(await screen.findByRole('heading', { level: 1, name: 'This link cannot be used' }, { timeout: 8000 })).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/withdrawals/confirm')).toHaveLength(0);
  });

  it('works for a signed-in member too, whose wallet then shows the withdrawal moved on', async () => {
    const confirmed = withdrawal({ stage: 'awaiting_approval' });
    const fetchMock = signIn(member, { 'POST /withdrawals/confirm': () => ({ body: confirmed }) });
    renderApp('/wallet/withdrawals/confirm?token=tok-456');

    expect(await screen.findByRole('heading', { level: 1, name: 'Withdrawal confirmed' }, { timeout: 8000 })).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/withdrawals/confirm')).toEqual([{ token: 'tok-456' }]);
  });
});

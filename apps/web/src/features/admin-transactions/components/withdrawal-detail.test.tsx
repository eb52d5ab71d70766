import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AdminTransaction, AdminTransactionDetail } from '@terrafund/contracts';
import { callsTo, expectToast, renderApp, signIn } from '@/testing/test-utils';
import { admin, buildAdminTransactionDetail, buildPendingWithdrawal, buildPublicConfig } from '@/testing/builders';

const ADDRESS = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const HASH = 'cd'.repeat(32);

const pending = buildPendingWithdrawal({
  amount: 6000,
  asset: 'BTC',
  network: 'Bitcoin',
  walletAddress: ADDRESS,
  stage: 'awaiting_approval',
  fee: 1,
  receiveAmount: 5999,
  user: { _id: '33333333-3333-4333-8333-333333333333', firstName: 'Alan', lastName: 'Turing', email: 'alan@example.com' },
});
const short = (transaction: AdminTransaction) => transaction._id.slice(-8);

/** The admin on /admin/transactions with one row, its detail and the payout provider named by the public config. */
async function openDetail(
  row: AdminTransaction,
  { detail = () => buildAdminTransactionDetail(row), provider = 'sandbox', handlers = {} }: {
    detail?: () => AdminTransactionDetail;
    provider?: string;
    handlers?: Parameters<typeof signIn>[1];
  } = {},
) {
  const fetchMock = signIn(admin, {
    'GET /admin/payments/review': () => ({ body: [] }),
    'GET /config': () => ({ body: buildPublicConfig({ payoutProvider: provider }) }),
    'GET /admin/transactions': () => ({ body: [row] }),
    [`GET /admin/transactions/${row._id}`]: () => ({ body: detail() }),
    ...handlers,
  });
  const app = renderApp('/admin/transactions');
  await app.user.click(await screen.findByRole('button', { name: new RegExp(`^(Review|View) transaction ${short(row)}$`) }, { timeout: 8000 }));
  const dialog = await screen.findByRole('dialog', { name: `Withdrawal ${short(row)}` });
  return { ...app, fetchMock, dialog };
}

const field = (dialog: HTMLElement, label: string) => within(dialog).getByText(label, { selector: 'dt' }).closest('div')!;

describe("an admin's withdrawal detail", { timeout: 20_000 }, () => {
  it('shows the coin, network, address with its explorer link, approvals, payout at the provider and the hash with its explorer link', async () => {
    const completed = { ...pending, status: 'completed' as const, stage: 'completed' as const, txHash: HASH };
    // The list row need not name the coin: the detail does.
    const { dialog } = await openDetail({ ...completed, asset: undefined, network: undefined }, {
      detail: () =>
        buildAdminTransactionDetail(completed, {
          approvals: [
            { adminEmail: 'admin@example.com', at: '2026-02-10T10:00:00.000Z' },
            { adminEmail: 'grace@example.com', at: '2026-02-10T11:00:00.000Z' },
          ],
          payout: { provider: 'sandbox', id: 'sbx_42', state: 'completed', cryptoAmount: '0.0601', cryptoCurrency: 'BTC', txHash: HASH },
        }),
    });

    expect(await within(dialog).findByText('Member receives')).toBeInTheDocument();
    expect(within(field(dialog, 'Coin')).getByText('Bitcoin')).toBeInTheDocument();
    expect(within(field(dialog, 'Network')).getByText('Bitcoin')).toBeInTheDocument();
    expect(within(field(dialog, 'Member receives')).getByText('$5,999.00')).toBeInTheDocument();
    expect(within(field(dialog, 'Stage')).getByText('Completed')).toBeInTheDocument();
    const approvals = within(dialog).getByRole('list', { name: 'Approvals' });
    expect(within(approvals).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^admin@example\.com · Feb 10, 2026, \d\d:\d\d$/),
      expect.stringMatching(/^grace@example\.com · Feb 10, 2026, \d\d:\d\d$/),
    ]);
    const payout = field(dialog, 'Payout');
    expect(within(payout).getByText('sandbox')).toBeInTheDocument();
    expect(within(payout).getByText('completed')).toBeInTheDocument();
    expect(within(payout).getByText('sbx_42')).toBeInTheDocument();
    expect(within(payout).getByText('0.0601 BTC')).toBeInTheDocument();
    expect(within(field(dialog, 'Transaction hash')).getByText(HASH)).toBeInTheDocument();

    const addressLink = within(dialog).getByRole('link', { name: /View the address on the block explorer/ });
    expect(addressLink).toHaveAttribute('href', `https://mempool.space/address/${ADDRESS}`);
    expect(addressLink).toHaveAttribute('target', '_blank');
    expect(addressLink).toHaveAttribute('rel', expect.stringContaining('noopener'));
    expect(within(dialog).getByRole('link', { name: /View the transaction on the block explorer/ })).toHaveAttribute(
      'href',
      `https://mempool.space/tx/${HASH}`,
    );
    expect(within(dialog).queryByRole('form', { name: 'Update withdrawal status' })).not.toBeInTheDocument();
  });

  it('says "Waiting for the provider" with its last error while an approved payout cannot be created', async () => {
    const waiting = { ...pending, stage: 'waiting_for_provider' as const };
    const { dialog } = await openDetail(waiting, {
      detail: () =>
        buildAdminTransactionDetail(waiting, {
          approvals: [{ adminEmail: 'grace@example.com', at: '2026-02-10T10:00:00.000Z' }, { adminEmail: 'ken@example.com', at: '2026-02-10T10:05:00.000Z' }],
          lastError: 'BTCPay Server answered 503',
        }),
    });

    const stage = field(dialog, 'Stage');
    expect(await within(stage).findByText('Waiting for the provider')).toBeInTheDocument();
    expect(within(stage).getByText('Last error: BTCPay Server answered 503')).toBeInTheDocument();
    expect(within(field(dialog, 'Payout')).getByText('Waiting for the provider')).toBeInTheDocument();
    // Approved: the decision is taken, the provider's now.
    expect(within(dialog).queryByRole('form', { name: 'Update withdrawal status' })).not.toBeInTheDocument();
  });

  it('offers no decision while the member has not confirmed the new address from the mail', async () => {
    const unconfirmed = { ...pending, stage: 'awaiting_confirmation' as const, awaitingConfirmation: true };
    const { dialog } = await openDetail(unconfirmed);

    expect(await within(dialog).findByText(/^This withdrawal is waiting for the member to confirm it/)).toBeInTheDocument();
    expect(within(dialog).queryByRole('form', { name: 'Update withdrawal status' })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Update' })).not.toBeInTheDocument();
  });

  it('approves through the payout provider without a hash; a first approval above the threshold says a second admin must approve', async () => {
    let current: AdminTransaction = pending;
    let approvals: AdminTransactionDetail['approvals'] = [];
    const { user, dialog, fetchMock } = await openDetail(pending, {
      detail: () => buildAdminTransactionDetail(current, { approvals }),
      handlers: {
        [`PATCH /transactions/${pending._id}/status`]: () => {
          approvals = [{ adminEmail: admin.email, at: '2026-02-10T12:00:00.000Z' }];
          current = { ...pending, updatedAt: '2026-02-10T12:00:00.000Z', approvals };
          const { user: _member, ...transaction } = current;
          return { status: 202, body: transaction };
        },
      },
    });

    const form = await within(dialog).findByRole('form', { name: 'Update withdrawal status' });
    const status = within(form).getByRole('combobox', { name: 'New status' });
    expect(within(status).getAllByRole('option').map((option) => option.textContent)).toEqual(['Approved', 'Failed']);
    expect(within(form).queryByRole('textbox', { name: /Transaction hash/ })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));

    await expectToast('Approval recorded. A second administrator must approve this withdrawal.');
    expect(callsTo(fetchMock, 'PATCH', `/transactions/${pending._id}/status`)).toEqual([{ status: 'completed' }]);
    // Fetched again with this admin's approval: only a refusal is left to them.
    expect(await within(dialog).findByText('You approved this withdrawal. A second administrator must approve it before it is sent.')).toBeInTheDocument();
    await waitFor(() =>
      expect(within(within(dialog).getByRole('combobox', { name: 'New status' })).getAllByRole('option').map((o) => o.textContent)).toEqual(['Failed']),
    );
    expect(within(within(dialog).getByRole('list', { name: 'Approvals' })).getByText(new RegExp(admin.email))).toBeInTheDocument();
  });

  it('fails a withdrawal with the reason the member will read', async () => {
    const { user, dialog, fetchMock } = await openDetail(pending, {
      handlers: {
        [`PATCH /transactions/${pending._id}/status`]: () => {
          const { user: _member, ...transaction } = pending;
          return { body: { ...transaction, status: 'failed', stage: 'failed' } };
        },
      },
    });

    const form = await within(dialog).findByRole('form', { name: 'Update withdrawal status' });
    await user.selectOptions(within(form).getByRole('combobox', { name: 'New status' }), 'failed');
    await user.type(within(form).getByRole('textbox', { name: 'Reason (optional)' }), '  Address belongs to a sanctioned service ');
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));

    await expectToast('Withdrawal status updated successfully.');
    expect(callsTo(fetchMock, 'PATCH', `/transactions/${pending._id}/status`)).toEqual([
      { status: 'failed', reason: 'Address belongs to a sanctioned service' },
    ]);
  });

  it('with the manual provider, shows the hash field and the server refusal of a hash under it', async () => {
    const { user, dialog } = await openDetail(pending, {
      provider: 'manual',
      handlers: {
        [`PATCH /transactions/${pending._id}/status`]: () => ({
          status: 400,
          body: { message: 'Please enter a valid Bitcoin transaction hash', code: 'VALIDATION_ERROR', fields: { txHash: 'Please enter a valid Bitcoin transaction hash' } },
        }),
      },
    });

    const form = await within(dialog).findByRole('form', { name: 'Update withdrawal status' });
    expect(within(within(form).getByRole('combobox', { name: 'New status' })).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Completed',
      'Failed',
    ]);
    const hash = within(form).getByRole('textbox', { name: 'Transaction hash' });
    await user.type(hash, HASH);
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(hash).toHaveAccessibleDescription('Please enter a valid Bitcoin transaction hash'));
    expect(hash).toHaveAttribute('aria-invalid', 'true');
  });
});

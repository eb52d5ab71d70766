import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AdminTransaction } from '@terrafund/contracts';
import { callsTo, expectToast, queriesTo, renderApp, signIn } from '@/testing/test-utils';
import { admin, buildAdminTransaction, buildAdminTransactionDetail, buildPendingWithdrawal, buildPublicConfig } from '@/testing/builders';

const deposit = buildAdminTransaction({ amount: 2500, description: 'GOLD membership', plan: 'gold' });
const withdrawal = buildPendingWithdrawal({
  asset: 'BTC',
  network: 'Bitcoin',
  stage: 'awaiting_approval',
  createdAt: '2026-02-10T09:15:00.000Z',
  updatedAt: '2026-02-10T09:15:00.000Z',
  user: { _id: '33333333-3333-4333-8333-333333333333', firstName: 'Alan', lastName: 'Turing', email: 'alan@example.com' },
});

type Reply = { body: unknown; headers?: Record<string, string> };
const page = (items: AdminTransaction[], nextCursor?: string): Reply => ({
  body: items,
  headers: nextCursor ? { 'X-Next-Cursor': nextCursor } : undefined,
});

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

/** The first visit loads the route module: give it time, so a busy machine does not fail the test. */
async function visit(path: string) {
  const view = renderApp(path);
  await screen.findByRole('heading', { level: 1, name: 'Transactions' }, { timeout: 5000 });
  return view;
}

/** The payments-to-review panel above the list (admin-payments) asks too; nothing is held in these tests. */
const nothingHeld = { 'GET /admin/payments/review': () => ({ body: [] }) };

/** PAYOUT_PROVIDER=manual: the admin pays elsewhere and completes with the hash (withdrawal-detail.test.tsx has the providers). */
const manualPayouts = { 'GET /config': () => ({ body: buildPublicConfig({ payoutProvider: 'manual' }) }) };
/** GET /admin/transactions/{id} for a withdrawal, as it is now. */
/** The default: a payout provider sends it once approved, and the decision needs no hash. */
const providerPayouts = { 'GET /config': () => ({ body: buildPublicConfig() }) };
const detailOf = (current: () => AdminTransaction) => ({
  [`GET /admin/transactions/${current()._id}`]: () => ({ body: buildAdminTransactionDetail(current()) }),
});
const HASH = 'ab'.repeat(32);

type Handler = NonNullable<Parameters<typeof signIn>[1]>[string];
/**
 * The routes of a pending withdrawal under review: the list and its detail show it as `current()` has it now, and
 * `decide` answers the decision.
 */
const reviewing = (current: () => AdminTransaction, payouts: typeof providerPayouts, decide: Handler) => ({
  ...nothingHeld,
  ...payouts,
  ...detailOf(current),
  'GET /admin/transactions': () => page([current()]),
  [`PATCH /transactions/${withdrawal._id}/status`]: decide,
});

/** Opens the list, then the review of the pending withdrawal from its row. */
async function openReview() {
  const { user } = await visit('/admin/transactions');
  await user.click(await screen.findByRole('button', { name: 'Review transaction 00000002' }));
  return user;
}

const table = () => screen.findByRole('table', { name: 'All transactions' });
const rowOf = (text: string) => within(screen.getByRole('table', { name: 'All transactions' })).getByText(text).closest('tr')!;
const short = (transaction: AdminTransaction) => transaction._id.slice(-8);

describe('admin transactions', { timeout: 20_000 }, () => {
  it('lists transactions with a short ID, the member, type, whole-dollar amount, status and date', async () => {
    const fetchMock = signIn(admin, { ...nothingHeld, 'GET /admin/transactions': () => page([withdrawal, deposit]) });
    await visit('/admin/transactions');
    await table();

    const withdrawalRow = rowOf('Alan Turing');
    const id = within(withdrawalRow).getByText('00000002');
    expect(id).toHaveAttribute('title', withdrawal._id);
    expect(within(withdrawalRow).getByRole('button', { name: 'Copy transaction ID 00000002' })).toBeInTheDocument();
    expect(within(withdrawalRow).getByText('alan@example.com')).toBeInTheDocument();
    expect(within(withdrawalRow).getByText('Withdrawal')).toBeInTheDocument();
    // 0 decimals in admin views (docs/product.md §7.4 Transactions and withdrawal decisions): 250.50 shows as $251.
    expect(within(withdrawalRow).getByText('-$251')).toBeInTheDocument();
    expect(within(withdrawalRow).getByText('Pending')).toBeInTheDocument();
    expect(within(withdrawalRow).getByText('Feb 10, 2026')).toBeInTheDocument();
    expect(within(withdrawalRow).getByRole('button', { name: 'Review transaction 00000002' })).toBeInTheDocument();

    const depositRow = rowOf('Ada Lovelace');
    expect(within(depositRow).getByText('+$2,500')).toBeInTheDocument();
    expect(within(depositRow).getByText('Completed')).toBeInTheDocument();
    expect(within(depositRow).getByRole('button', { name: 'View transaction 00000001' })).toBeInTheDocument();

    expect(queriesTo(fetchMock, '/admin/transactions')).toEqual([{ page: '1' }]);
  });

  it('loads the next page with Load More, sending the cursor, and stops once a page comes back empty', async () => {
    const first = Array.from({ length: 20 }, (_, index) =>
      buildAdminTransaction({ user: { ...deposit.user, firstName: `Member${index + 1}` } }),
    );
    const second = [buildAdminTransaction({ user: { ...deposit.user, firstName: 'Second', lastName: 'Page' } })];
    const secondPage = deferred<Reply>();
    const fetchMock = signIn(admin, {
      ...nothingHeld,
      'GET /admin/transactions': (_body, { url }) => {
        const pageNumber = new URL(url).searchParams.get('page');
        if (pageNumber === '1') return page(first, 'cursor-after-20');
        if (pageNumber === '2') return secondPage.promise;
        return page([]);
      },
    });
    const { user } = await visit('/admin/transactions');
    await screen.findByText('Member20 Lovelace');

    await user.click(screen.getByRole('button', { name: 'Load More' }));

    // A spinner in the button while the page loads, and the rows already shown stay.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Load More' })).toHaveAttribute('aria-busy', 'true'));
    expect(screen.getByText('Member1 Lovelace')).toBeInTheDocument();
    secondPage.resolve(page(second));

    expect(await screen.findByText('Second Page')).toBeInTheDocument();
    expect(screen.getByText('21 transactions shown')).toBeInTheDocument();
    // A short page without a cursor does not end the list: only an empty page does (docs/product.md §7.4 Transactions and withdrawal decisions).
    await user.click(screen.getByRole('button', { name: 'Load More' }));

    expect(await screen.findByText('No more transactions')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load More' })).not.toBeInTheDocument();
    expect(screen.getByText('Second Page')).toBeInTheDocument();
    expect(queriesTo(fetchMock, '/admin/transactions')).toEqual([{ page: '1' }, { page: '2', cursor: 'cursor-after-20' }, { page: '3' }]);
  });

  it('searches once typing pauses, keeps the search in the URL and starts again from page 1', async () => {
    const fetchMock = signIn(admin, {
      ...nothingHeld,
      'GET /admin/transactions': (_body, { url }) =>
        new URL(url).searchParams.get('search') === 'alan' ? page([withdrawal]) : page([withdrawal, deposit], 'next'),
    });
    const { user, router } = await visit('/admin/transactions');
    await screen.findByText('Ada Lovelace');

    await user.type(screen.getByRole('searchbox', { name: 'Search transactions' }), 'alan');

    await waitFor(() => expect(router.state.location.search).toBe('?search=alan'));
    await waitFor(() => expect(screen.queryByText('Ada Lovelace')).not.toBeInTheDocument());
    expect(screen.getByText('Alan Turing')).toBeInTheDocument();
    // Debounced: one request for the whole word, not one per letter.
    expect(queriesTo(fetchMock, '/admin/transactions')).toEqual([{ page: '1' }, { page: '1', search: 'alan' }]);
  });

  it('offers Clear search when nothing matches, which lists everything again', async () => {
    const fetchMock = signIn(admin, {
      ...nothingHeld,
      'GET /admin/transactions': (_body, { url }) => (new URL(url).searchParams.get('search') ? page([]) : page([deposit])),
    });
    const { user, router } = await visit('/admin/transactions?search=nobody');

    expect(await screen.findByText('No transactions found')).toBeInTheDocument();
    expect(screen.getByText('No transaction matches “nobody”.')).toBeInTheDocument();
    expect(screen.getByRole('searchbox')).toHaveValue('nobody');
    expect(screen.queryByRole('button', { name: 'Load More' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Clear search' }));

    expect(await screen.findByText('Ada Lovelace')).toBeInTheDocument();
    expect(screen.getByRole('searchbox')).toHaveValue('');
    expect(router.state.location.search).toBe('');
    expect(queriesTo(fetchMock, '/admin/transactions')).toEqual([{ page: '1', search: 'nobody' }, { page: '1' }]);
  });

  it('opens every detail of a transaction from its row, without a status control unless it is a pending withdrawal', async () => {
    const paid = buildAdminTransaction({
      type: 'withdrawal',
      amount: 100,
      status: 'completed',
      walletAddress: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
      txHash: '0x9f2c4e1b',
      plan: null,
      description: 'Withdrawal to wallet',
    });
    const pendingDeposit = buildAdminTransaction({ status: 'pending', description: 'PLATINUM membership', plan: 'platinum' });
    signIn(admin, { ...nothingHeld, ...manualPayouts, ...detailOf(() => paid), 'GET /admin/transactions': () => page([paid, pendingDeposit, deposit]) });
    const { user } = await visit('/admin/transactions');
    await table();

    // A click anywhere on the row opens it.
    await user.click(within(rowOf(short(paid))).getByText('-$100'));
    const dialog = await screen.findByRole('dialog', { name: `Withdrawal ${short(paid)}` });
    const field = (label: string) => within(dialog).getByText(label).closest('div')!;
    expect(within(field('Transaction ID')).getByText(paid._id)).toBeInTheDocument();
    expect(within(field('User')).getByText('Ada Lovelace')).toBeInTheDocument();
    expect(within(field('User')).getByRole('link', { name: 'ada@example.com' })).toHaveAttribute('href', 'mailto:ada@example.com');
    expect(within(field('User')).getByRole('link', { name: 'Open user' })).toHaveAttribute('href', `/admin/users/${paid.user._id}`);
    expect(within(field('Type')).getByText('Withdrawal')).toBeInTheDocument();
    expect(within(field('Amount')).getByText('-$100')).toBeInTheDocument();
    expect(within(field('Status')).getByText('Completed')).toBeInTheDocument();
    expect(within(field('Date')).getByText(/^Jan 05, 2026, \d\d:\d\d$/)).toBeInTheDocument();
    expect(within(field('Description')).getByText('Withdrawal to wallet')).toBeInTheDocument();
    expect(within(field('Wallet address')).getByText('TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE')).toBeInTheDocument();
    expect(within(field('Transaction hash')).getByText('0x9f2c4e1b')).toBeInTheDocument();
    expect(within(field('Plan')).getByText('—')).toBeInTheDocument();
    // Already decided: nothing to update.
    expect(within(dialog).queryByRole('form', { name: 'Update withdrawal status' })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Update' })).not.toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    // A pending deposit is settled by the payment provider, never by an admin.
    await user.click(screen.getByRole('button', { name: `View transaction ${short(pendingDeposit)}` }));
    const depositDialog = await screen.findByRole('dialog', { name: `Deposit ${short(pendingDeposit)}` });
    expect(within(depositDialog).getByText('Platinum')).toBeInTheDocument();
    expect(within(depositDialog).queryByRole('form', { name: 'Update withdrawal status' })).not.toBeInTheDocument();
    expect(within(depositDialog).queryByRole('combobox')).not.toBeInTheDocument();
    expect(within(depositDialog).queryByRole('button', { name: 'Update' })).not.toBeInTheDocument();
  });

  it('completes a pending withdrawal with its transaction hash, updates the row at once and refreshes the dashboard', async () => {
    let current = withdrawal;
    let listAfterDecision: ReturnType<typeof deferred<Reply>> | null = null;
    const fetchMock = signIn(admin, {
      ...nothingHeld,
      ...manualPayouts,
      ...detailOf(() => current),
      'GET /admin/dashboard/stats': () => ({
        body: { totalUsers: 2, totalInvestments: 2500, totalDailyPayouts: 10, monthlyVolume: 2500, userGrowth: 0, investmentGrowth: 0 },
      }),
      'GET /admin/dashboard/transactions': () => ({ body: [current] }),
      'GET /admin/transactions': () => listAfterDecision?.promise ?? page([current, deposit]),
      [`PATCH /transactions/${withdrawal._id}/status`]: (body) => {
        const { user: _user, ...rest } = current;
        current = { ...current, status: 'completed', txHash: (body as { txHash?: string }).txHash ?? null, updatedAt: '2026-02-11T08:00:00.000Z' };
        listAfterDecision = deferred<Reply>();
        return { body: { ...rest, status: 'completed', txHash: current.txHash, updatedAt: current.updatedAt } };
      },
    });
    const { user, router } = renderApp('/admin/dashboard');
    await screen.findByRole('group', { name: 'Total Users' }, { timeout: 5000 });
    await act(() => router.navigate('/admin/transactions'));
    await screen.findByText('Alan Turing');

    await user.click(screen.getByRole('button', { name: 'Review transaction 00000002' }));
    const dialog = await screen.findByRole('dialog', { name: 'Withdrawal 00000002' });
    // The exact amount beside the rounded one: whoever pays needs the cents.
    expect(within(dialog).getByText('exactly $250.50')).toBeInTheDocument();
    const form = within(dialog).getByRole('form', { name: 'Update withdrawal status' });
    expect(within(form).getByRole('combobox', { name: 'New status' })).toHaveValue('completed');

    // With the manual provider the hash is the payout's only record: it must be one Bitcoin's chain could have.
    const hash = within(form).getByRole('textbox', { name: 'Transaction hash' });
    await user.type(hash, '0xfeed');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(hash).toHaveAccessibleDescription('Please enter a valid Bitcoin transaction hash');
    expect(callsTo(fetchMock, 'PATCH', `/transactions/${withdrawal._id}/status`)).toHaveLength(0);
    await user.clear(hash);
    await user.type(hash, `  ${HASH}  `);
    await user.click(screen.getByRole('button', { name: 'Update' }));

    await expectToast('Withdrawal status updated successfully.');
    expect(callsTo(fetchMock, 'PATCH', `/transactions/${withdrawal._id}/status`)).toEqual([{ status: 'completed', txHash: HASH }]);
    // Updated in place while the list is still being fetched again: the row, and the dialog, which no longer offers a decision.
    expect(within(rowOf('Alan Turing')).getByText('Completed')).toBeInTheDocument();
    expect(within(dialog).getByText(HASH)).toBeInTheDocument();
    expect(within(dialog).queryByRole('form', { name: 'Update withdrawal status' })).not.toBeInTheDocument();
    // Focus stays in the dialog, on the new status, instead of falling to the page behind it.
    await waitFor(() => expect(within(dialog).getByText('Completed').parentElement).toHaveFocus());
    await waitFor(() => expect(queriesTo(fetchMock, '/admin/transactions')).toHaveLength(2));
    listAfterDecision!.resolve(page([current, deposit]));

    // The dashboard's figures and recent transactions were made stale: opening it asks for them again.
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await act(() => router.navigate('/admin/dashboard'));
    await screen.findByRole('group', { name: 'Total Users' });
    await waitFor(() => expect(queriesTo(fetchMock, '/admin/dashboard/stats')).toHaveLength(2));
    await waitFor(() => expect(queriesTo(fetchMock, '/admin/dashboard/transactions')).toHaveLength(2));
  });

  it('fails a pending withdrawal with the status alone, even if a hash was typed before', async () => {
    let current = withdrawal;
    const fetchMock = signIn(
      admin,
      reviewing(
        () => current,
        manualPayouts,
        () => {
          current = { ...withdrawal, status: 'failed' };
          const { user: _user, ...rest } = current;
          return { body: rest };
        },
      ),
    );
    const user = await openReview();
    const form = await screen.findByRole('form', { name: 'Update withdrawal status' });

    await user.type(within(form).getByRole('textbox', { name: 'Transaction hash' }), HASH);
    await user.selectOptions(within(form).getByRole('combobox', { name: 'New status' }), 'failed');
    expect(within(form).queryByRole('textbox', { name: 'Transaction hash' })).not.toBeInTheDocument();
    expect(within(form).getByText('Failing the withdrawal returns the amount to the member’s wallet balance.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Update' }));

    await expectToast('Withdrawal status updated successfully.');
    expect(callsTo(fetchMock, 'PATCH', `/transactions/${withdrawal._id}/status`)).toEqual([{ status: 'failed' }]);
    expect(within(rowOf('Alan Turing')).getByText('Failed')).toBeInTheDocument();
  });

  it("shows the server's reason when another admin decided first, and the decision they made", async () => {
    let current = withdrawal;
    signIn(
      admin,
      reviewing(
        () => current,
        providerPayouts,
        () => {
          current = { ...withdrawal, status: 'failed' };
          return { status: 409, body: { message: 'Only a pending withdrawal can be updated', code: 'CONFLICT' } };
        },
      ),
    );
    const user = await openReview();
    await user.click(await screen.findByRole('button', { name: 'Update' }));

    await expectToast('Only a pending withdrawal can be updated');
    // The list is fetched again, so the row and the dialog show the other admin's decision.
    await waitFor(() => expect(within(rowOf('Alan Turing')).getByText('Failed')).toBeInTheDocument());
    expect(screen.queryByRole('form', { name: 'Update withdrawal status' })).not.toBeInTheDocument();
  });

  it('says "Failed to update withdrawal status." when the server fails without a reason to give', async () => {
    signIn(
      admin,
      reviewing(
        () => withdrawal,
        providerPayouts,
        () => ({ status: 500, body: { message: 'An unexpected error occurred', code: 'INTERNAL_ERROR' } }),
      ),
    );
    const user = await openReview();
    await user.click(await screen.findByRole('button', { name: 'Update' }));

    await expectToast('Failed to update withdrawal status.');
    expect(screen.queryByText('An unexpected error occurred')).not.toBeInTheDocument();
    // Still pending: the admin can try again.
    expect(screen.getByRole('form', { name: 'Update withdrawal status' })).toBeInTheDocument();
  });

  it('toasts "Failed to load transactions." when the list fails, and offers to try again', async () => {
    let fail = true;
    signIn(admin, {
      ...nothingHeld,
      'GET /admin/transactions': () => (fail ? { status: 400, body: { message: 'Invalid page cursor', code: 'VALIDATION_ERROR' } } : page([deposit])),
    });
    const { user } = await visit('/admin/transactions');

    await expectToast('Failed to load transactions.');
    expect(screen.queryByText('Invalid page cursor')).not.toBeInTheDocument();

    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Ada Lovelace')).toBeInTheDocument();
  });
});

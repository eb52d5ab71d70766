import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AdminTransaction, HeldPayment } from '@terrafund/contracts';
import { callsTo, expectToast, renderApp, signIn } from '@/testing/test-utils';
import { admin, buildHeldPayment } from '@/testing/builders';

const partial = buildHeldPayment();
const late = buildHeldPayment({
  reviewReason: 'late',
  rawStatus: 'Expired/PaidLate',
  pack: 'platinum',
  amount: 5000,
  transactionStatus: 'failed',
  user: { _id: '33333333-3333-4333-8333-333333333333', firstName: 'Alan', lastName: 'Turing', email: 'alan@example.com' },
});
const over = buildHeldPayment({
  provider: 'nowpayments',
  providerInvoiceId: '5077125051',
  paymentId: '4409701815',
  reviewReason: 'over',
  rawStatus: 'finished',
  pack: 'startium',
  amount: 700,
  user: { _id: '44444444-4444-4444-8444-444444444444', firstName: 'Edsger', lastName: 'Dijkstra', email: 'edsger@example.com' },
});
const mismatch = buildHeldPayment({
  provider: 'sandbox',
  paid: null,
  reviewReason: 'mismatch',
  rawStatus: 'Settled',
  pack: 'ultimium',
  amount: 1200,
  user: { _id: '55555555-5555-4555-8555-555555555555', firstName: 'Barbara', lastName: 'Liskov', email: 'barbara@example.com' },
});

const decided = (payment: HeldPayment, decision: 'activate' | 'reject'): HeldPayment => ({
  ...payment,
  state: decision === 'activate' ? 'settled' : 'failed',
  transactionStatus: decision === 'activate' ? 'completed' : 'failed',
  decision,
  decidedBy: admin._id,
  decidedAt: '2026-02-11T08:00:00.000Z',
});

/** The first visit loads the route module: give it time, so a busy machine does not fail the test. */
async function visit() {
  const view = renderApp('/admin/transactions');
  await screen.findByRole('heading', { level: 1, name: 'Transactions' }, { timeout: 5000 });
  return view;
}

const panel = () => screen.findByRole('region', { name: 'Payments to review' });
/** The value shown under a label of a held payment's details. */
const fieldValue = (scope: HTMLElement, label: string) => within(scope).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
const item = (name: RegExp) => screen.getByRole('listitem', { name });
const noTransactions = { 'GET /admin/transactions': () => ({ body: [] as AdminTransaction[] }) };

describe('payments to review', { timeout: 20_000 }, () => {
  it('lists each held payment with its member, pack, amount, reason in plain words, provider and invoice id', async () => {
    signIn(admin, { ...noTransactions, 'GET /admin/payments/review': () => ({ body: [partial, late, over, mismatch] }) });
    await visit();
    const region = await panel();
    await within(region).findByText('Partial payment');
    expect(within(region).getByText('4')).toBeInTheDocument();

    const first = item(/Ada Lovelace/);
    expect(within(first).getByText('Gold pack, $2,500')).toBeInTheDocument();
    expect(within(first).getByRole('link', { name: 'ada@example.com' })).toHaveAttribute('href', 'mailto:ada@example.com');
    expect(within(first).getByRole('link', { name: 'Open user' })).toHaveAttribute('href', `/admin/users/${partial.user._id}`);
    expect(within(first).getByText('Less than the pack’s price arrived.')).toBeInTheDocument();
    expect(within(first).getByText('BTCPay Server')).toBeInTheDocument();
    expect(within(first).getByText(partial.providerInvoiceId)).toBeInTheDocument();
    expect(within(first).getByText('Expired/PaidPartial')).toBeInTheDocument();
    // What arrived, beside what was asked.
    expect(fieldValue(first, 'Expected')).toBe('$2,500.00');
    expect(fieldValue(first, 'Received')).toBe('0.0195 BTC');
    expect(within(first).getByText('Pending')).toBeInTheDocument();
    expect(within(first).getByRole('button', { name: 'Activate pack' })).toBeInTheDocument();
    expect(within(first).getByRole('button', { name: 'Reject' })).toBeInTheDocument();

    const second = item(/Alan Turing/);
    expect(within(second).getByText('Platinum pack, $5,000')).toBeInTheDocument();
    expect(within(second).getByText('Paid after expiry')).toBeInTheDocument();
    // Expiry failed the deposit before the money came: activating it completes it all the same.
    expect(within(second).getByText('Failed')).toBeInTheDocument();

    const third = item(/Edsger Dijkstra/);
    expect(within(third).getByText('Over-payment')).toBeInTheDocument();
    expect(within(third).getByText('NOWPayments')).toBeInTheDocument();
    expect(within(third).getByText('5077125051')).toBeInTheDocument();
    expect(within(third).getByText('4409701815')).toBeInTheDocument();

    expect(within(item(/Barbara Liskov/)).getByText('Amount, currency or order mismatch')).toBeInTheDocument();
    expect(fieldValue(item(/Barbara Liskov/), 'Received')).toBe('Not reported by the provider');
  });

  it('says so in one line when nothing is held', async () => {
    signIn(admin, { ...noTransactions, 'GET /admin/payments/review': () => ({ body: [] }) });
    await visit();
    const region = await panel();
    expect(await within(region).findByText('No payments are waiting for review.')).toBeInTheDocument();
    expect(within(region).getByText('0')).toBeInTheDocument();
    expect(within(region).queryByRole('button', { name: 'Activate pack' })).not.toBeInTheDocument();
  });

  it('activates a pack after confirmation, with the note, then refreshes the list and the transactions', async () => {
    let held = [partial, late];
    const fetchMock = signIn(admin, {
      ...noTransactions,
      'GET /admin/payments/review': () => ({ body: held }),
      [`POST /admin/payments/${partial._id}/review`]: (body) => {
        held = [late];
        return { body: { ...decided(partial, 'activate'), decisionNote: (body as { note?: string }).note ?? null } };
      },
    });
    const { user } = await visit();
    await panel();
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/admin/transactions')).toHaveLength(1));

    await user.click(within(await screen.findByRole('listitem', { name: /Ada Lovelace/ })).getByRole('button', { name: 'Activate pack' }));
    const dialog = await screen.findByRole('dialog', { name: 'Activate pack' });
    expect(within(dialog).getByText(/the Gold pack becomes Ada Lovelace’s active pack from now, replacing any pack they have/)).toBeInTheDocument();
    // Nothing is sent before the admin confirms.
    expect(callsTo(fetchMock, 'POST', `/admin/payments/${partial._id}/review`)).toEqual([]);

    await user.type(within(dialog).getByRole('textbox', { name: 'Note (optional)' }), '  Rest arrived in a second transfer.  ');
    await user.click(within(dialog).getByRole('button', { name: 'Activate pack' }));

    await expectToast('Payment accepted: the pack is active.');
    expect(callsTo(fetchMock, 'POST', `/admin/payments/${partial._id}/review`)).toEqual([
      { decision: 'activate', note: 'Rest arrived in a second transfer.' },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.queryByRole('listitem', { name: /Ada Lovelace/ })).not.toBeInTheDocument());
    expect(screen.getByRole('listitem', { name: /Alan Turing/ })).toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET', '/admin/payments/review')).toHaveLength(2);
    // The deposit it completed shows in the transactions list.
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/admin/transactions')).toHaveLength(2));
  });

  it('rejects without a note when none is typed, and Cancel sends nothing', async () => {
    let held = [late];
    const fetchMock = signIn(admin, {
      ...noTransactions,
      'GET /admin/payments/review': () => ({ body: held }),
      [`POST /admin/payments/${late._id}/review`]: () => {
        held = [];
        return { body: decided(late, 'reject') };
      },
    });
    const { user } = await visit();
    const row = await screen.findByRole('listitem', { name: /Alan Turing/ });

    await user.click(within(row).getByRole('button', { name: 'Reject' }));
    let dialog = await screen.findByRole('dialog', { name: 'Reject payment' });
    expect(within(dialog).getByText(/Nothing moves on Alan Turing’s balance: refund the money at BTCPay Server/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', `/admin/payments/${late._id}/review`)).toEqual([]);

    await user.click(within(row).getByRole('button', { name: 'Reject' }));
    dialog = await screen.findByRole('dialog', { name: 'Reject payment' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Note (optional)' }), '   ');
    await user.click(within(dialog).getByRole('button', { name: 'Reject payment' }));

    await expectToast('Payment rejected. The member has been told support will contact them.');
    expect(callsTo(fetchMock, 'POST', `/admin/payments/${late._id}/review`)).toEqual([{ decision: 'reject' }]);
    expect(await screen.findByText('No payments are waiting for review.')).toBeInTheDocument();
  });

  it("shows the server's reason in the dialog when another admin decided first, and drops the payment from the list", async () => {
    let held = [partial];
    signIn(admin, {
      ...noTransactions,
      'GET /admin/payments/review': () => ({ body: held }),
      [`POST /admin/payments/${partial._id}/review`]: () => {
        held = [];
        return { status: 409, body: { message: 'Only a payment held for review can be decided', code: 'CONFLICT' } };
      },
    });
    const { user } = await visit();
    await user.click(within(await screen.findByRole('listitem', { name: /Ada Lovelace/ })).getByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject payment' });
    await user.click(within(dialog).getByRole('button', { name: 'Reject payment' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Only a payment held for review can be decided');
    expect(await screen.findByText('No payments are waiting for review.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('says "Failed to decide the payment." when the server fails without a reason, and lets the admin try again', async () => {
    let fail = true;
    signIn(admin, {
      ...noTransactions,
      'GET /admin/payments/review': () => ({ body: [partial] }),
      [`POST /admin/payments/${partial._id}/review`]: () =>
        fail ? { status: 500, body: { message: 'An unexpected error occurred', code: 'INTERNAL_ERROR' } } : { body: decided(partial, 'activate') },
    });
    const { user } = await visit();
    await user.click(within(await screen.findByRole('listitem', { name: /Ada Lovelace/ })).getByRole('button', { name: 'Activate pack' }));
    const dialog = await screen.findByRole('dialog', { name: 'Activate pack' });
    await user.click(within(dialog).getByRole('button', { name: 'Activate pack' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to decide the payment.');
    expect(screen.queryByText('An unexpected error occurred')).not.toBeInTheDocument();

    fail = false;
    await user.click(within(dialog).getByRole('button', { name: 'Activate pack' }));
    await expectToast('Payment accepted: the pack is active.');
  });

  it('toasts "Failed to load payments to review." when the list fails, and offers to try again', async () => {
    let fail = true;
    signIn(admin, {
      ...noTransactions,
      'GET /admin/payments/review': () => (fail ? { status: 400, body: { message: 'Invalid input', code: 'VALIDATION_ERROR' } } : { body: [partial] }),
    });
    const { user } = await visit();
    await expectToast('Failed to load payments to review.');
    const region = await panel();

    fail = false;
    await user.click(await within(region).findByRole('button', { name: 'Try again' }));
    expect(await within(region).findByText('Partial payment')).toBeInTheDocument();
  });
});

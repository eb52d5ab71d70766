import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { messages, type TransactionDetail } from '@terrafund/contracts';
import { captureDownloads, expectToast, renderApp, signIn } from '@/testing/test-utils';
import { buildTransaction, buildUser } from '@/testing/builders';
import { walletHandlers } from '../testing/wallet-fixtures';

const member = buildUser({ balance: 100, membershipLevel: 'gold', membershipStartDate: '2026-01-05T10:00:00.000Z', membershipEndDate: '2029-01-05T10:00:00.000Z' });
const withdrawal = buildTransaction({ type: 'withdrawal', amount: 30, status: 'completed', walletAddress: 'bc1qmemberaddress', txHash: '0xabc123' });

async function openWallet(handlers: Parameters<typeof signIn>[1] = {}) {
  const fetchMock = signIn(member, { ...walletHandlers, 'GET /transactions': () => ({ body: [withdrawal] }), ...handlers });
  const app = renderApp('/wallet');
  const history = await screen.findByRole('region', { name: 'Transaction History' }, { timeout: 8000 });
  return { ...app, fetchMock, history };
}

/** Sets the statement form's range to `from`–`to` and presses Download statement; answers the form. */
async function askStatement(user: UserEvent, history: HTMLElement, from: string, to: string) {
  const form = within(history).getByRole('form', { name: 'Download statement' });
  await user.clear(within(form).getByLabelText('From'));
  await user.type(within(form).getByLabelText('From'), from);
  await user.clear(within(form).getByLabelText('To'));
  await user.type(within(form).getByLabelText('To'), to);
  await user.click(within(form).getByRole('button', { name: 'Download statement' }));
  return form;
}

describe('download statement', { timeout: 20_000 }, () => {
  const clicked = captureDownloads('blob:statement');

  it('asks for the chosen range and saves the file under the server\'s name', async () => {
    const { user, fetchMock, history } = await openWallet({
      'GET /transactions/export': () => ({
        body: 'Date,Type,Description,Amount (USD),Status,Reference',
        headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="terrafund-statement-2026-03-01-to-2026-03-31.csv"' },
      }),
    });
    await askStatement(user, history, '2026-03-01', '2026-03-31');

    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(clicked[0]!.download).toBe('terrafund-statement-2026-03-01-to-2026-03-31.csv');
    expect(clicked[0]!.href).toBe('blob:statement');
    const call = fetchMock.mock.calls.find(([input]) => String(input).includes('/transactions/export'))!;
    const url = new URL(String(call[0]), 'http://localhost');
    expect(Object.fromEntries(url.searchParams)).toEqual({ from: '2026-03-01', to: '2026-03-31' });
    expect(new Headers(call[1]?.headers).get('Authorization')).toBe('Bearer test-token');
  });

  it('refuses a start after the end without asking the server', async () => {
    const { user, fetchMock, history } = await openWallet();
    const form = await askStatement(user, history, '2026-04-02', '2026-04-01');
    expect(await within(form).findByText(messages.statements.rangeInvalid)).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([input]) => String(input).includes('/transactions/export'))).toBe(false);
  });

  it('says so when the server refuses', async () => {
    const { user, history } = await openWallet({
      'GET /transactions/export': () => ({ status: 400, body: { message: messages.statements.fromInvalid, code: 'VALIDATION_ERROR' } }),
    });
    await user.click(within(history).getByRole('button', { name: 'Download statement' }));
    await expectToast(messages.statements.fromInvalid);
  });
});

describe('following a withdrawal', { timeout: 20_000 }, () => {
  it('shows the timeline with the transaction hash', async () => {
    const detail: TransactionDetail = {
      ...withdrawal,
      timeline: [
        { status: 'requested', at: '2026-03-02T00:00:00.000Z' },
        { status: 'completed', at: '2026-03-03T09:30:00.000Z', txHash: '0xabc123' },
      ],
    };
    const { user, history } = await openWallet({ [`GET /transactions/${withdrawal._id}`]: () => ({ body: detail }) });
    await user.click(await within(history).findByRole('button', { name: /Track withdrawal/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Withdrawal details' });
    const steps = within(await within(dialog).findByRole('list', { name: 'Timeline' })).getAllByRole('listitem');
    expect(steps.map((s) => s.querySelector('p')?.textContent)).toEqual(['Requested', 'Completed']);
    expect(steps[1]).toHaveTextContent('Transaction hash: 0xabc123');
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mailMessages, type UndeliverableMail, type UndeliverableMailPage } from '@terrafund/contracts';
import { admin } from '@/testing/builders';
import { callsTo, expectToast, renderApp, signIn } from '@/testing/test-utils';

const lost = (overrides: Partial<UndeliverableMail> = {}): UndeliverableMail => ({
  id: '7a1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d',
  recipient: 'ada@example.com',
  subject: 'Your withdrawal was sent | Terrafund',
  template: 'withdrawalCompleted',
  attempts: 31,
  lastError: 'connect ECONNREFUSED 10.0.0.5:587',
  createdAt: '2026-02-10T08:00:00.000Z',
  firstFailedAt: '2026-02-10T08:00:01.000Z',
  resendable: true,
  ...overrides,
});
const page = (items: UndeliverableMail[], nextCursor: string | null = null): UndeliverableMailPage => ({ items, total: items.length, nextCursor });

async function visit() {
  const view = renderApp('/admin/mail');
  await screen.findByRole('heading', { level: 1, name: 'Mail' }, { timeout: 5000 });
  return view;
}
const region = () => screen.findByRole('region', { name: 'Undeliverable mail' });

describe('undeliverable mail', { timeout: 20_000 }, () => {
  it('lists each mail with its recipient, what was tried and the last error, and sends one again', async () => {
    let items = [lost(), lost({ id: '8b2d3e4f-5061-4b7c-9d8e-0f1a2b3c4d5e', recipient: 'alan@example.com', resendable: false })];
    const fetchMock = signIn(admin, {
      'GET /admin/mail/undeliverable': () => ({ body: page(items) }),
      [`POST /admin/mail/${items[0]!.id}/resend`]: () => {
        items = items.slice(1);
        return { body: { id: '7a1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d', message: mailMessages.resent } };
      },
    });
    const { user } = await visit();
    const list = await region();
    const first = await within(list).findByRole('listitem', { name: /to ada@example\.com/ });
    expect(within(first).getByText(/31 attempts/)).toBeInTheDocument();
    expect(within(first).getByText('Last error: connect ECONNREFUSED 10.0.0.5:587')).toBeInTheDocument();
    // Without its content it cannot be sent again, and says so.
    const second = within(list).getByRole('listitem', { name: /to alan@example\.com/ });
    expect(within(second).queryByRole('button', { name: 'Send again' })).not.toBeInTheDocument();
    expect(within(second).getByText(mailMessages.noBody)).toBeInTheDocument();

    await user.click(within(first).getByRole('button', { name: 'Send again' }));
    await expectToast(mailMessages.resent);
    expect(callsTo(fetchMock, 'POST', `/admin/mail/7a1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d/resend`)).toHaveLength(1);
    await waitFor(() => expect(within(list).queryByRole('listitem', { name: /to ada@example\.com/ })).not.toBeInTheDocument());
  });

  it('says so in one line when all mail was delivered', async () => {
    signIn(admin, { 'GET /admin/mail/undeliverable': () => ({ body: page([]) }) });
    await visit();
    expect(await within(await region()).findByText('All mail was delivered.')).toBeInTheDocument();
  });
});

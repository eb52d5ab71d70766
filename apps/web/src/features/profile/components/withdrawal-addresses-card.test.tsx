import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { WithdrawalAddress } from '@terrafund/contracts';
import { buildUser } from '@/testing/builders';
import { callsTo, expectToast, pendingPages, renderApp, signIn } from '@/testing/test-utils';

const bitcoin: WithdrawalAddress = {
  id: 'aaaaaaaa-0000-4000-8000-000000000001',
  asset: 'BTC',
  address: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
  confirmedAt: '2026-03-01T09:00:00.000Z',
  lastUsedAt: '2026-03-05T12:30:00.000Z',
};
const tron: WithdrawalAddress = {
  id: 'aaaaaaaa-0000-4000-8000-000000000002',
  asset: 'USDT-TRC20',
  address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
  confirmedAt: '2026-03-02T09:00:00.000Z',
  lastUsedAt: null,
};

async function openProfile(handlers: Parameters<typeof signIn>[1]) {
  const fetchMock = signIn(buildUser(), { ...pendingPages.profile, ...handlers });
  const app = renderApp('/profile');
  await screen.findByRole('heading', { name: 'Profile', level: 1 }, { timeout: 5000 });
  return { ...app, fetchMock };
}

const book = () => screen.findByRole('list', { name: 'Withdrawal addresses' });

describe('the withdrawal address book on the Profile', { timeout: 20_000 }, () => {
  it('lists the confirmed addresses with their coin, when confirmed and last used; Remove asks first, then deletes', async () => {
    let addresses = [tron, bitcoin];
    const { user, fetchMock } = await openProfile({
      'GET /users/withdrawal-addresses': () => ({ body: addresses }),
      [`DELETE /users/withdrawal-addresses/${bitcoin.id}`]: () => {
        addresses = [tron];
        return { status: 204 };
      },
    });

    const items = within(await book()).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Tether on Tron');
    expect(items[0]).toHaveTextContent(tron.address);
    expect(items[0]).toHaveTextContent(/Confirmed Mar 02, 2026, \d\d:\d\d · not used since/);
    expect(items[1]).toHaveTextContent('Bitcoin');
    expect(items[1]).toHaveTextContent(/last used Mar 05, 2026, \d\d:\d\d/);

    await user.click(within(items[1]!).getByRole('button', { name: `Remove Bitcoin address ${bitcoin.address}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove this address?' });
    expect(dialog).toHaveAccessibleDescription('A later withdrawal to it will have to be confirmed by mail again.');
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));

    await expectToast('Address removed');
    expect(callsTo(fetchMock, 'DELETE', `/users/withdrawal-addresses/${bitcoin.id}`)).toHaveLength(1);
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Withdrawal addresses' })).getAllByRole('listitem')).toHaveLength(1));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('says how an address gets there when the book is empty', async () => {
    await openProfile({ 'GET /users/withdrawal-addresses': () => ({ body: [] }) });
    expect(await screen.findByText(/^None yet\. The first withdrawal to an address asks you to confirm it/)).toBeInTheDocument();
  });

  it('toasts the refusal of a removal (someone else’s, already gone) and keeps the list as the server has it', async () => {
    const { user } = await openProfile({
      'GET /users/withdrawal-addresses': () => ({ body: [bitcoin] }),
      [`DELETE /users/withdrawal-addresses/${bitcoin.id}`]: () => ({ status: 404, body: { message: 'Address not found', code: 'NOT_FOUND' } }),
    });
    await user.click(within(await book()).getByRole('button', { name: /^Remove Bitcoin address/ }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Remove this address?' })).getByRole('button', { name: 'Remove' }));
    await expectToast('Address not found');
  });
});

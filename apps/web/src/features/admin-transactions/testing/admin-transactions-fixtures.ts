import type { AdminTransaction } from '@terrafund/contracts';
import { buildUser, type mockApi } from '@/testing/test-utils';

export const admin = buildUser({
  _id: '00000000-0000-4000-8000-00000000a001',
  firstName: 'Grace',
  lastName: 'Hopper',
  email: 'grace@example.com',
  role: 'admin',
});

let sequence = 0;

/** A transaction as the admin list answers it; each call gets a fresh id unless one is given. */
export function buildAdminTransaction(overrides: Partial<AdminTransaction> = {}): AdminTransaction {
  sequence += 1;
  const id = `${String(sequence).padStart(8, '0')}-0000-4000-8000-${String(sequence).padStart(12, '0')}`;
  return {
    _id: id,
    type: 'deposit',
    amount: 2500,
    status: 'completed',
    userId: '5f0c6d1e-8a57-4b6a-9d4e-0f1a2b3c4d5e',
    description: 'GOLD membership',
    walletAddress: null,
    txHash: null,
    plan: 'gold',
    date: '2026-01-05T10:00:00.000Z',
    createdAt: '2026-01-05T10:00:00.000Z',
    updatedAt: '2026-01-05T10:00:00.000Z',
    user: { _id: '5f0c6d1e-8a57-4b6a-9d4e-0f1a2b3c4d5e', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
    ...overrides,
  };
}

/** The query strings of the GET calls the app made to one path. */
export function queriesTo(fetchMock: ReturnType<typeof mockApi>, path: string) {
  return fetchMock.mock.calls
    .map(([input, init]) => ({ url: new URL(String(input), 'http://localhost'), method: init?.method ?? 'GET' }))
    .filter(({ url, method }) => method === 'GET' && url.pathname === `/api${path}`)
    .map(({ url }) => Object.fromEntries(url.searchParams));
}

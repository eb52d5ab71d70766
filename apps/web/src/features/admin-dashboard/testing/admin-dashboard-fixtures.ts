import type { AdminStats, AdminTransaction } from '@terrafund/contracts';
import { buildUser } from '@/testing/test-utils';

export const admin = buildUser({
  _id: '00000000-0000-4000-8000-00000000a001',
  firstName: 'Grace',
  lastName: 'Hopper',
  email: 'grace@example.com',
  role: 'admin',
});

export function buildStats(overrides: Partial<AdminStats> = {}): AdminStats {
  return {
    totalUsers: 1234,
    totalInvestments: 1_250_000,
    totalDailyPayouts: 1340,
    monthlyVolume: 86_420.75,
    userGrowth: 12.5,
    investmentGrowth: -3.24,
    ...overrides,
  };
}

export function buildAdminTransaction(overrides: Partial<AdminTransaction> = {}): AdminTransaction {
  return {
    _id: '11111111-1111-4111-8111-111111111111',
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

import { vi } from 'vitest';
import { PACK_FEATURES, PACKS, type PackPayment, type Plan, type PublicConfig, type Transaction } from '@terrafund/contracts';

/** The four packs as GET /api/plans answers them. */
export const plans: Plan[] = PACKS.map((pack) => ({ ...pack, features: [...PACK_FEATURES] }));

export const config: PublicConfig = {
  contactEmail: 'support@terrafund.example',
  contactPhone: '+1 555 010 0100',
};

let sequence = 0;
export function buildTransaction(overrides: Partial<Transaction> = {}): Transaction {
  sequence += 1;
  return {
    _id: `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`,
    type: 'payout',
    amount: 10,
    status: 'completed',
    userId: '5f0c6d1e-8a57-4b6a-9d4e-0f1a2b3c4d5e',
    description: '',
    walletAddress: null,
    txHash: null,
    plan: null,
    date: '2026-03-02T00:00:00.000Z',
    createdAt: '2026-03-02T00:00:00.000Z',
    updatedAt: '2026-03-02T00:00:00.000Z',
    ...overrides,
  };
}

let paymentSequence = 0;
export function buildPackPayment(overrides: Partial<PackPayment> = {}): PackPayment {
  paymentSequence += 1;
  return {
    _id: `10000000-0000-4000-8000-${String(paymentSequence).padStart(12, '0')}`,
    transactionId: `20000000-0000-4000-8000-${String(paymentSequence).padStart(12, '0')}`,
    pack: 'gold',
    amount: 2500,
    status: 'settled',
    date: '2026-03-02T00:00:00.000Z',
    payment_url: null,
    expiresAt: null,
    ...overrides,
  };
}

/** The handlers every wallet test needs: plans, the public config, and an empty history. */
export const walletHandlers = {
  'GET /plans': () => ({ body: plans }),
  'GET /config': () => ({ body: config }),
  'GET /transactions': () => ({ body: [] as Transaction[] }),
  'GET /payments': () => ({ body: [] as PackPayment[] }),
};

/** window.location.assign, which jsdom cannot perform, replaced by a spy. */
export function stubLocationAssign() {
  const assign = vi.fn();
  vi.stubGlobal('location', { ...window.location, assign });
  return assign;
}

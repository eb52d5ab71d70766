import type { HeldPayment } from '@terrafund/contracts';
import { buildUser } from '@/testing/test-utils';

export const admin = buildUser({
  _id: '00000000-0000-4000-8000-00000000a001',
  firstName: 'Grace',
  lastName: 'Hopper',
  email: 'grace@example.com',
  role: 'admin',
});

let sequence = 0;

/** A payment as GET /admin/payments/review answers it; each call gets fresh ids unless given. */
export function buildHeldPayment(overrides: Partial<HeldPayment> = {}): HeldPayment {
  sequence += 1;
  const n = String(sequence).padStart(12, '0');
  return {
    _id: `aaaaaaaa-0000-4000-8000-${n}`,
    provider: 'btcpay',
    providerInvoiceId: `BtcInv${n}`,
    paymentId: null,
    pack: 'gold',
    amount: 2500,
    state: 'review',
    reviewReason: 'partial',
    rawStatus: 'Expired/PaidPartial',
    createdAt: '2026-02-10T09:00:00.000Z',
    closedAt: '2026-02-10T10:00:00.000Z',
    transactionId: `dddddddd-0000-4000-8000-${n}`,
    transactionStatus: 'pending',
    user: { _id: '5f0c6d1e-8a57-4b6a-9d4e-0f1a2b3c4d5e', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
    decision: null,
    decidedBy: null,
    decidedAt: null,
    decisionNote: null,
    ...overrides,
  };
}

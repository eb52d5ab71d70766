import {
  explorerAddressUrl,
  explorerTxUrl,
  isWithdrawalAssetId,
  type AdminStats,
  type AdminTransaction,
  type AdminTransactionDetail,
  type AuditEntry,
  type HeldPayment,
  type KycInfo,
  type PackPayment,
  type Project,
  type PublicConfig,
  type Transaction,
  type User,
  type UserWithKyc,
} from '@terrafund/contracts';

/**
 * One builder for each shape the API answers, for every web test: a valid default, changed by overrides.
 * Builders of listed things give each call a fresh id unless one is given.
 */

const sequences = new Map<string, number>();
/** The next number of a builder's own sequence, as 12 digits (the last group of a uuid). */
function next(name: string) {
  const n = (sequences.get(name) ?? 0) + 1;
  sequences.set(name, n);
  return String(n).padStart(12, '0');
}

export function buildUser(overrides: Partial<User> = {}): User {
  return {
    _id: '5f0c6d1e-8a57-4b6a-9d4e-0f1a2b3c4d5e',
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    phone: '+1 555 010 0000',
    role: 'user',
    isEmailVerified: true,
    kycStatus: 'not_started',
    kycVerified: false,
    balance: 0,
    membershipLevel: null,
    membershipStartDate: null,
    membershipEndDate: null,
    currentMembership: null,
    createdAt: '2026-01-05T10:00:00.000Z',
    lastLogin: null,
    twoFactorEnabled: false,
    ...overrides,
  };
}

export const admin = buildUser({
  _id: '00000000-0000-4000-8000-00000000a001',
  firstName: 'Grace',
  lastName: 'Hopper',
  email: 'grace@example.com',
  role: 'admin',
});

/** Who a listed thing belongs to, as the admin lists show it. */
const ada = { _id: '5f0c6d1e-8a57-4b6a-9d4e-0f1a2b3c4d5e', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' };
const adminRef = { _id: admin._id, firstName: admin.firstName, lastName: admin.lastName, email: admin.email };

export function buildUserWithKyc(overrides: Partial<UserWithKyc> = {}): UserWithKyc {
  return { ...buildUser(), kyc: null, ...overrides };
}

export function buildKyc(overrides: Partial<KycInfo> = {}): KycInfo {
  return {
    dateOfBirth: '1990-04-12',
    nationality: 'UK',
    address: '12 Analytical Row',
    city: 'London',
    state: '',
    postalCode: 'N1 9GU',
    country: 'UK',
    idType: 'passport',
    idNumber: 'P1234567',
    kycSubmittedAt: '2026-02-01T09:30:00.000Z',
    kycRejectionReason: null,
    kycReviewedAt: null,
    documents: [
      '/api/kyc/documents/idFront/11111111-1111-4111-8111-111111111111',
      '/api/kyc/documents/idBack/22222222-2222-4222-8222-222222222222',
    ],
    ...overrides,
  };
}

export function buildAuditEntry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    _id: 'audit-1',
    action: 'kyc.approved',
    actor: adminRef,
    targetType: 'user',
    targetId: buildUser()._id,
    before: { kycStatus: 'pending', kycVerified: false },
    after: { kycStatus: 'approved', kycVerified: true },
    createdAt: '2026-02-02T11:15:00.000Z',
    ...overrides,
  };
}

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

/** A transaction as a member's history answers it. */
export function buildTransaction(overrides: Partial<Transaction> = {}): Transaction {
  return {
    _id: `00000000-0000-4000-8000-${next('transaction')}`,
    type: 'payout',
    amount: 10,
    status: 'completed',
    userId: ada._id,
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

/** A transaction as the admin lists answer it, with its member. */
export function buildAdminTransaction(overrides: Partial<AdminTransaction> = {}): AdminTransaction {
  const n = next('admin-transaction');
  return {
    ...buildTransaction({ type: 'deposit', amount: 2500, description: 'GOLD membership', plan: 'gold', date: '2026-01-05T10:00:00.000Z', createdAt: '2026-01-05T10:00:00.000Z', updatedAt: '2026-01-05T10:00:00.000Z' }),
    _id: `${n.slice(4)}-0000-4000-8000-${n}`,
    user: ada,
    ...overrides,
  };
}

/** A pack payment as GET /payments answers it. */
export function buildPackPayment(overrides: Partial<PackPayment> = {}): PackPayment {
  const n = next('pack-payment');
  return {
    _id: `10000000-0000-4000-8000-${n}`,
    transactionId: `20000000-0000-4000-8000-${n}`,
    pack: 'gold',
    amount: 2500,
    paid: null,
    status: 'settled',
    date: '2026-03-02T00:00:00.000Z',
    payment_url: null,
    expiresAt: null,
    ...overrides,
  };
}

/** A payment as GET /admin/payments/review answers it. */
export function buildHeldPayment(overrides: Partial<HeldPayment> = {}): HeldPayment {
  const n = next('held-payment');
  return {
    _id: `aaaaaaaa-0000-4000-8000-${n}`,
    provider: 'btcpay',
    providerInvoiceId: `BtcInv${n}`,
    paymentId: null,
    pack: 'gold',
    amount: 2500,
    paid: { amount: '0.0195', currency: 'BTC' },
    state: 'review',
    reviewReason: 'partial',
    rawStatus: 'Expired/PaidPartial',
    createdAt: '2026-02-10T09:00:00.000Z',
    closedAt: '2026-02-10T10:00:00.000Z',
    transactionId: `dddddddd-0000-4000-8000-${n}`,
    transactionStatus: 'pending',
    user: ada,
    decision: null,
    decidedBy: null,
    decidedAt: null,
    decisionNote: null,
    ...overrides,
  };
}

/** A project as GET /projects answers it; ids are valid uuids, pictures our own asset addresses. */
export function buildProject(overrides: Partial<Project> = {}): Project {
  const n = next('project');
  return {
    _id: `11111111-1111-4111-8111-${n}`,
    owner: adminRef,
    title: 'Harbour View Residences',
    description: 'Forty-two apartments on the waterfront, let on long leases.',
    location: 'Lisbon, Portugal',
    type: 'residential',
    status: 'available',
    images: [
      '/api/projects/assets/aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa1',
      '/api/projects/assets/aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa2',
      '/api/projects/assets/aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa3',
    ],
    target: 1_000_000,
    funded: 400_000,
    roi: 8.5,
    term: 48,
    minInvestment: 5000,
    startDate: '2026-03-01',
    endDate: '2030-02-28',
    details: {
      features: ['Rooftop terrace', 'Underground parking'],
      propertyType: 'Apartment building',
      size: '3,800 m²',
      units: 42,
      yearBuilt: 2019,
      occupancyRate: 96.5,
      paymentSchedule: 'quarterly',
      documents: [
        { name: 'Investment brochure', url: '/api/projects/assets/dddddddd-dddd-4ddd-8ddd-ddddddddddd1' },
        { name: 'Valuation report', url: '/api/projects/assets/dddddddd-dddd-4ddd-8ddd-ddddddddddd2' },
      ],
    },
    createdAt: '2026-02-01T09:00:00.000Z',
    updatedAt: '2026-02-01T09:00:00.000Z',
    ...overrides,
  };
}

/** A pending withdrawal as the admin lists answer it, with its member. */
export function buildPendingWithdrawal(overrides: Partial<AdminTransaction> = {}): AdminTransaction {
  return buildAdminTransaction({
    type: 'withdrawal',
    amount: 250.5,
    status: 'pending',
    description: 'Withdrawal to wallet',
    walletAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    plan: null,
    date: '2026-02-10T09:15:00.000Z',
    ...overrides,
  });
}

/** A gold membership that has run its course. */
export const endedMembership: NonNullable<User['currentMembership']> = {
  pack: 'gold',
  status: 'ended',
  startedAt: '2026-01-05T12:00:00.000Z',
  endsAt: '2029-01-05T00:00:00.000Z',
  lastPaidDay: '2029-01-05',
  endedAt: '2029-01-05T00:00:00.000Z',
};

/** GET /api/config as a server with the defaults answers it: BTC, ETH and USDT-TRC20, a 1 USD fee, the sandbox payouts. */
export function buildPublicConfig(overrides: Partial<PublicConfig> = {}): PublicConfig {
  return {
    contactEmail: 'support@terrafund.example',
    contactPhone: '+1 555 010 0100',
    withdrawalAssets: [
      { id: 'BTC', name: 'Bitcoin', network: 'Bitcoin', feeUsd: 1 },
      { id: 'ETH', name: 'Ether', network: 'Ethereum', feeUsd: 1 },
      { id: 'USDT-TRC20', name: 'Tether', network: 'Tron', feeUsd: 1 },
    ],
    payoutProvider: 'sandbox',
    withdrawalFeeUsd: 1,
    minWithdrawalUsd: 25,
    withdrawalDailyLimitUsd: 10_000,
    ...overrides,
  };
}

/** GET /api/admin/transactions/{id} for a row of the admin list: its approvals, timeline, payout, member, explorer links. */
export function buildAdminTransactionDetail(
  row: AdminTransaction,
  overrides: Partial<AdminTransactionDetail> = {},
): AdminTransactionDetail {
  const { user, approvalsCount: _count, ...transaction } = row;
  const asset = transaction.asset && isWithdrawalAssetId(transaction.asset) ? transaction.asset : undefined;
  const txHash = overrides.txHash ?? transaction.txHash;
  return {
    ...transaction,
    approvals: [],
    timeline: [{ status: 'requested', at: transaction.date }],
    payout: null,
    lastError: null,
    member: { name: `${user.firstName} ${user.lastName}`, email: user.email },
    explorer: {
      address: asset && transaction.walletAddress ? explorerAddressUrl(asset, transaction.walletAddress) : null,
      transaction: asset && txHash ? explorerTxUrl(asset, txHash) : null,
    },
    ...overrides,
  };
}

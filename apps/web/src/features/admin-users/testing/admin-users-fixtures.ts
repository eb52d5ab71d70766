import type { AuditEntry, KycInfo, UserWithKyc } from '@terrafund/contracts';
import { buildUser, type mockApi } from '@/testing/test-utils';

export const admin = buildUser({
  _id: '00000000-0000-4000-8000-00000000a001',
  firstName: 'Grace',
  lastName: 'Hopper',
  email: 'grace@example.com',
  role: 'admin',
});

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

export function buildUserWithKyc(overrides: Partial<UserWithKyc> = {}): UserWithKyc {
  return { ...buildUser(), kyc: null, ...overrides };
}

export function buildAuditEntry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    _id: 'audit-1',
    action: 'kyc.approved',
    actor: { _id: admin._id, firstName: admin.firstName, lastName: admin.lastName, email: admin.email },
    targetType: 'user',
    targetId: buildUser()._id,
    before: { kycStatus: 'pending', kycVerified: false },
    after: { kycStatus: 'approved', kycVerified: true },
    createdAt: '2026-02-02T11:15:00.000Z',
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

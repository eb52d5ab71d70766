import type { User } from '@terrafund/contracts';
import type { UserRow } from '../../db/schema';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * The user as the spec's client reads it, from the users row alone. `withKyc` (kyc.service.ts) fills in
 * what lives elsewhere: the wallet balance from the ledger and the active membership.
 */
export function toUserDto(row: UserRow): User {
  return {
    _id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    phone: row.phone,
    role: row.role,
    isEmailVerified: row.emailVerifiedAt !== null,
    kycStatus: row.kycStatus,
    kycVerified: row.kycVerified,
    balance: 0,
    membershipLevel: null,
    membershipStartDate: null,
    membershipEndDate: null,
    currentMembership: null,
    createdAt: row.createdAt.toISOString(),
    lastLogin: iso(row.lastLoginAt),
    twoFactorEnabled: row.twoFactorEnabledAt !== null,
  };
}

import { centsToUsd, type PublicUser } from '@terrafund/contracts';
import type { UserRow } from '../../db/schema';
import type { Deps } from '../../deps';
import { kycInfoFor } from '../kyc';
import { walletBalancesOf } from '../ledger';
import { currentMemberships } from '../memberships';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * The one user object of the API (docs/product.md, shapes): what sign-in, the code check, the profile, the KYC
 * answers and the admin's user lists all send, built here and nowhere else so that their fields can never
 * drift apart. Besides the users row it reads the wallet balance from the ledger, the current membership
 * (active, or the last one that ended, judged by the clock) and the KYC answers, for every row at once (one
 * query each, not one per user).
 */
export async function publicUsers(deps: Pick<Deps, 'db' | 'clock' | 'config'>, rows: UserRow[]): Promise<PublicUser[]> {
  const ids = rows.map((r) => r.id);
  const [info, balances, current] = await Promise.all([
    kycInfoFor(deps, ids),
    walletBalancesOf(deps.db, ids),
    currentMemberships(deps.db, deps, ids),
  ]);
  return rows.map((row) => {
    const membership = current.get(row.id);
    // The spec's three fields describe the active pack only: an ended one is shown through currentMembership.
    const active = membership && !membership.ended ? membership.view : undefined;
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
      balance: centsToUsd(balances.get(row.id) ?? 0),
      membershipLevel: active?.pack ?? null,
      membershipStartDate: active?.startedAt ?? null,
      membershipEndDate: active?.endsAt ?? null,
      currentMembership: membership?.view ?? null,
      createdAt: row.createdAt.toISOString(),
      lastLogin: iso(row.lastLoginAt),
      twoFactorEnabled: row.twoFactorEnabledAt !== null,
      closedAt: iso(row.closedAt),
      locale: row.locale,
      kyc: info.get(row.id) ?? null,
    };
  });
}

/** publicUsers for one row. */
export async function publicUser(deps: Pick<Deps, 'db' | 'clock' | 'config'>, row: UserRow): Promise<PublicUser> {
  return (await publicUsers(deps, [row]))[0]!;
}

import { and, eq, inArray } from 'drizzle-orm';
import type { PublicUser } from '@terrafund/contracts';
import { memberships, type UserRow } from '../../db/schema';
import type { Deps } from '../../deps';
import { kycInfoFor } from '../kyc/kyc.service';
import { walletBalancesOf } from '../ledger/ledger.service';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * The one user object of the API (docs/product.md, shapes): what sign-in, the code check, the profile, the KYC
 * answers and the admin's user lists all send, built here and nowhere else so that their fields can never
 * drift apart. Besides the users row it reads the wallet balance from the ledger, the active membership and
 * the KYC answers, for every row at once (one query each, not one per user).
 */
export async function publicUsers(deps: Pick<Deps, 'db'>, rows: UserRow[]): Promise<PublicUser[]> {
  const ids = rows.map((r) => r.id);
  const [info, balances, active] = await Promise.all([
    kycInfoFor(deps, ids),
    walletBalancesOf(deps.db, ids),
    ids.length
      ? deps.db
          .select()
          .from(memberships)
          .where(and(inArray(memberships.userId, ids), eq(memberships.status, 'active')))
      : Promise.resolve([]),
  ]);
  const membershipOf = new Map(active.map((m) => [m.userId, m]));
  return rows.map((row) => {
    const membership = membershipOf.get(row.id);
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
      balance: (balances.get(row.id) ?? 0) / 100,
      membershipLevel: membership?.pack ?? null,
      membershipStartDate: membership?.startedAt.toISOString() ?? null,
      membershipEndDate: membership?.endsAt.toISOString() ?? null,
      createdAt: row.createdAt.toISOString(),
      lastLogin: iso(row.lastLoginAt),
      kyc: info.get(row.id) ?? null,
    };
  });
}

/** publicUsers for one row. */
export async function publicUser(deps: Pick<Deps, 'db'>, row: UserRow): Promise<PublicUser> {
  return (await publicUsers(deps, [row]))[0]!;
}

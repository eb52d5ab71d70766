import { messages } from '@terrafund/contracts';
import type { UserRow } from '../../db/schema';
import type { Deps } from '../../deps';
import { AppError } from '../../lib/app-error';

type AdminRoleDeps = { config: Pick<Deps['config'], 'requireAdmin2fa'> };

/**
 * The one place REQUIRE_ADMIN_2FA is decided: an admin without two-factor sign-in is refused (403
 * TWO_FACTOR_REQUIRED) whatever the admin role would open, an `access: 'admin'` route or another member's
 * document or transaction behind a member route alike.
 */
export function assertAdminTwoFactor(deps: AdminRoleDeps, user: Pick<UserRow, 'twoFactorEnabledAt'>) {
  if (deps.config.requireAdmin2fa && user.twoFactorEnabledAt === null) {
    throw new AppError('TWO_FACTOR_REQUIRED', messages.twoFactor.required);
  }
}

/**
 * Whether the caller may open someone else's record because they are an admin: false for a member (the caller
 * then gets whatever a stranger gets), the admin-2FA refusal for an admin who must turn it on first.
 */
export function opensAsAdmin(deps: AdminRoleDeps, user: Pick<UserRow, 'role' | 'twoFactorEnabledAt'>): boolean {
  if (user.role !== 'admin') return false;
  assertAdminTwoFactor(deps, user);
  return true;
}

import { and, eq, isNull } from 'drizzle-orm';
import type { Logger } from 'pino';
import { passwordStrengthProblem } from '@terrafund/contracts/password-strength';
import { emailCodes, passwordResetTokens, users, type UserRow } from '../../db/schema';
import type { Deps } from '../../deps';
import { hashPassword } from '../../lib/password';
import { recordAudit } from '../audit';
import { enqueueMail } from '../mail';
import { normalizeEmail } from '../users';
import { revokeUserSessions } from '../sessions';
import { endPendingChallenges } from './two-factor.service';

export type AdminDeps = Pick<Deps, 'db' | 'clock' | 'secrets' | 'config'> & { logger: Pick<Logger, 'info' | 'warn'> };
type AdminCredentials = { email: string; password: string };

/** The start or the command refuses: the one line to print, naming what the operator must do. */
export class AdminBootstrapRefused extends Error {}

async function findByEmail(deps: Pick<AdminDeps, 'db'>, email: string): Promise<UserRow | undefined> {
  const [row] = await deps.db.select().from(users).where(eq(users.email, normalizeEmail(email))).limit(1);
  return row;
}

/** 'admin' for a live admin, 'member' for any other account with the address (deleted ones too). */
export async function accountRole(deps: Pick<AdminDeps, 'db'>, email: string): Promise<'admin' | 'member' | undefined> {
  const account = await findByEmail(deps, email);
  if (!account) return undefined;
  return account.role === 'admin' && !account.deletedAt ? 'admin' : 'member';
}

/** Outside production (which refuses such an ADMIN_PASSWORD at start, config.ts) a weak one is only warned about. */
function warnIfGuessable(deps: AdminDeps, credentials: AdminCredentials) {
  if (passwordStrengthProblem(credentials.password, [credentials.email])) {
    deps.logger.warn('the admin password is too easy to guess (the password rule would refuse it); change it after signing in');
  }
}

/** Creates the admin when no account has the address; false when one already does (nothing written). */
export async function createAdminIfAbsent(deps: AdminDeps, credentials: AdminCredentials): Promise<UserRow | undefined> {
  const email = normalizeEmail(credentials.email);
  const now = deps.clock.now();
  warnIfGuessable(deps, credentials);
  const [created] = await deps.db
    .insert(users)
    .values({
      email,
      firstName: 'Admin',
      lastName: 'Terrafund',
      passwordHash: await hashPassword(credentials.password),
      role: 'admin',
      emailVerifiedAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing({ target: users.email })
    .returning();
  return created;
}

/**
 * Makes an existing account admin at the operator's explicit request: the password becomes the operator's,
 * every session and outstanding code or reset link of the account ends, the owner is mailed and the audit
 * log keeps it. So no admin right ever rides on a password or session the account had before. An account
 * that is already admin is left as it is.
 */
export async function promoteToAdmin(
  deps: AdminDeps,
  credentials: AdminCredentials,
): Promise<'promoted' | 'already-admin' | 'not-found'> {
  const email = normalizeEmail(credentials.email);
  warnIfGuessable(deps, credentials);
  const passwordHash = await hashPassword(credentials.password);
  const outcome = await deps.db.transaction(async (tx) => {
    const [account] = await tx.select().from(users).where(eq(users.email, email)).limit(1).for('update');
    if (!account) return 'not-found' as const;
    if (account.role === 'admin' && !account.deletedAt) return 'already-admin' as const;
    const now = deps.clock.now();
    await tx
      .update(users)
      .set({
        role: 'admin',
        passwordHash,
        emailVerifiedAt: account.emailVerifiedAt ?? now,
        deletedAt: null,
        updatedAt: now,
      })
      .where(eq(users.id, account.id));
    await revokeUserSessions(tx, deps, account.id);
    await endPendingChallenges(tx, deps, account.id);
    await tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(and(eq(passwordResetTokens.userId, account.id), isNull(passwordResetTokens.usedAt)));
    await tx
      .update(emailCodes)
      .set({ consumedAt: now })
      .where(and(eq(emailCodes.userId, account.id), isNull(emailCodes.consumedAt)));
    await enqueueMail(tx, deps, account.email, 'adminPromoted', {
      firstName: account.firstName,
      loginUrl: `${deps.config.publicUrl}/login`,
      supportEmail: deps.config.contact.email,
    });
    await recordAudit(tx, deps, {
      actorId: null,
      action: 'admin.promoted',
      targetType: 'user',
      targetId: account.id,
      before: { role: account.role, deleted: account.deletedAt !== null },
      after: { role: 'admin', deleted: false, sessionsEnded: true, passwordReplaced: true },
    });
    return 'promoted' as const;
  });
  if (outcome === 'promoted') deps.logger.info({ email }, 'account promoted to admin; its sessions were ended');
  return outcome;
}

const refusal = (email: string) =>
  `ADMIN_EMAIL=${email} is an existing member account; refusing to make it admin with its own password and sessions. ` +
  `Promote it explicitly with \`npm run admin -- --promote ${email}\` (or start once with ADMIN_PROMOTE=true), or choose another ADMIN_EMAIL.`;

/**
 * The start's admin bootstrap (ADMIN_EMAIL/ADMIN_PASSWORD): creates the admin when the address is free; an
 * address that is already an admin's is left alone (its password stays); a member's address is refused
 * unless the operator asked for the promotion (ADMIN_PROMOTE=true).
 */
export async function ensureAdmin(
  deps: AdminDeps,
  credentials: AdminCredentials,
  options: { promote: boolean } = { promote: false },
): Promise<'created' | 'unchanged' | 'promoted'> {
  const email = normalizeEmail(credentials.email);
  if (await createAdminIfAbsent(deps, credentials)) {
    deps.logger.info({ email }, 'admin account created');
    return 'created';
  }
  if ((await accountRole(deps, email)) === 'admin') {
    deps.logger.info({ email }, 'admin account present; left unchanged');
    return 'unchanged';
  }
  if (!options.promote) throw new AdminBootstrapRefused(refusal(email));
  const outcome = await promoteToAdmin(deps, credentials);
  return outcome === 'promoted' ? 'promoted' : 'unchanged';
}

import { randomInt } from 'node:crypto';
import { and, eq, gt, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import {
  messages,
  RECOVERY_CODE_COUNT,
  TOTP_DIGITS,
  TOTP_ISSUER,
  TOTP_PERIOD_SECONDS,
  TOTP_WINDOW_STEPS,
  TWO_FACTOR_ALERT_INTERVAL_SECONDS,
  TWO_FACTOR_ALERT_WRONG_CODES,
  TWO_FACTOR_CHALLENGE_MAX_ATTEMPTS,
  TWO_FACTOR_CHALLENGE_TTL_SECONDS,
  type AuthSuccess,
  type loginTwoFactorBody,
  type twoFactorDisableBody,
  type twoFactorEnableBody,
  type twoFactorSetupBody,
} from '@terrafund/contracts';
import type { z } from 'zod';
import type { Executor } from '../../db/client';
import { twoFactorChallenges, twoFactorRecoveryCodes, users, type UserRow } from '../../db/schema';
import type { Deps, RequestMeta } from '../../deps';
import { AppError } from '../../lib/app-error';
import { randomToken } from '../../lib/crypto';
import { verifyPassword } from '../../lib/password';
import { recordAudit } from '../audit';
import { enqueueMail } from '../mail';
import { assertLoginAllowed, recordLoginFailure, recordLoginSuccess } from './login-throttle';
import { revokeUserSessions } from '../sessions';

type TwoFactorDeps = Deps;
type SignedIn = { sessionId: string; user: UserRow };

/** RFC 6238 with SHA-1, 6 digits and 30-second steps: what every authenticator app assumes. */
const totpOf = (secret: string) =>
  new TOTP({ algorithm: 'SHA1', digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS, secret: Secret.fromBase32(secret) });

/**
 * The time step a code belongs to when it is right now (one step of clock drift either way), else null. The
 * step, not just "valid", is what lets a sign-in refuse a code already used.
 */
export function matchingStep(secret: string, code: string, now: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(secret).validate({ token: code, timestamp: now.getTime(), window: TOTP_WINDOW_STEPS });
  if (delta === null) return null;
  return Math.floor(now.getTime() / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

/** `otpauth://totp/Terrafund:<email>?secret=…&issuer=Terrafund`, the e-mail's `@` left as it is. */
export const otpauthUrl = (email: string, secret: string) =>
  `otpauth://totp/${TOTP_ISSUER}:${encodeURIComponent(email).replace(/%40/g, '@')}?secret=${secret}&issuer=${TOTP_ISSUER}`;

// Recovery codes: 10 characters from an alphabet without look-alikes (no 0/o, 1/l/i), shown as xxxxx-xxxxx.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const newRecoveryCode = () => {
  const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(0, RECOVERY_ALPHABET.length)]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
};
const normalizeRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');
const recoveryHash = (deps: Pick<Deps, 'secrets'>, userId: string, code: string) =>
  deps.secrets.hash(`2fa-recovery:${userId}:${normalizeRecoveryCode(code)}`);

const securityUrl = (deps: Pick<Deps, 'config'>) => `${deps.config.publicUrl}/profile#security`;

async function lockUser(tx: Executor, userId: string) {
  const [row] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
  if (!row || row.deletedAt) throw new AppError('UNAUTHENTICATED', messages.auth.sessionExpired);
  return row;
}

/**
 * Every two-factor change asks for the password again, as disable always did: a session alone (a stolen
 * token, a computer left signed in) cannot tie the account to its holder's authenticator. Wrong or missing,
 * it is the same 400 on `password`; the routes' per-account limit bounds the guessing.
 */
async function assertCurrentPassword(user: UserRow, password: string) {
  if (!(await verifyPassword(user.passwordHash, password))) {
    throw new AppError('VALIDATION_ERROR', messages.twoFactor.passwordIncorrect, {
      fields: { password: messages.twoFactor.passwordIncorrect },
    });
  }
}

/**
 * POST /api/users/2fa/setup {password}: a new secret waiting for its first code; it replaces any earlier
 * unconfirmed one. An enabled secret is never replaced here (409): that takes disable, with a code.
 */
export async function setupTwoFactor(deps: TwoFactorDeps, session: SignedIn, body: z.output<typeof twoFactorSetupBody>) {
  const { user } = session;
  if (user.twoFactorEnabledAt) throw new AppError('CONFLICT', messages.twoFactor.alreadyEnabled);
  await assertCurrentPassword(user, body.password);
  const secret = new Secret({ size: 20 }).base32;
  await deps.db.transaction(async (tx) => {
    const locked = await lockUser(tx, user.id);
    if (locked.twoFactorEnabledAt) throw new AppError('CONFLICT', messages.twoFactor.alreadyEnabled);
    await tx
      .update(users)
      .set({ twoFactorPendingSecret: deps.secrets.sealTotpSecret(secret), updatedAt: deps.clock.now() })
      .where(eq(users.id, user.id));
  });
  return { secret, otpauthUrl: otpauthUrl(user.email, secret) };
}

const wrongCode = (field: string) =>
  new AppError('VALIDATION_ERROR', messages.twoFactor.codeInvalid, { fields: { [field]: messages.twoFactor.codeInvalid } });

/** A two-factor change, in its transaction: the audit entry (with `details` beside the new state) and the member's mail. */
async function recordTwoFactorChange(tx: Executor, deps: TwoFactorDeps, user: UserRow, enabled: boolean, details: Record<string, unknown> = {}) {
  await recordAudit(tx, deps, {
    actorId: user.id,
    action: enabled ? '2fa.enabled' : '2fa.disabled',
    targetType: 'user',
    targetId: user.id,
    before: { twoFactorEnabled: !enabled },
    after: { twoFactorEnabled: enabled, ...details },
  });
  await enqueueMail(tx, deps, user.email, enabled ? 'twoFactorEnabled' : 'twoFactorDisabled', { firstName: user.firstName, securityUrl: securityUrl(deps) });
}

/**
 * POST /api/users/2fa/enable {password, code}: the password and the first right code turn 2FA on and yield the
 * ten recovery codes, once. Every other session ends: whoever held one signed in without the second factor.
 */
export async function enableTwoFactor(deps: TwoFactorDeps, session: SignedIn, body: z.output<typeof twoFactorEnableBody>) {
  const { user } = session;
  if (user.twoFactorEnabledAt) throw new AppError('CONFLICT', messages.twoFactor.alreadyEnabled);
  await assertCurrentPassword(user, body.password);
  const { code } = body;
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const locked = await lockUser(tx, user.id);
    if (locked.twoFactorEnabledAt) throw new AppError('CONFLICT', messages.twoFactor.alreadyEnabled);
    if (!locked.twoFactorPendingSecret) {
      throw new AppError('VALIDATION_ERROR', messages.twoFactor.noSetup, { fields: { code: messages.twoFactor.noSetup } });
    }
    const secret = deps.secrets.openTotpSecret(locked.twoFactorPendingSecret);
    if (matchingStep(secret, code, now) === null) throw wrongCode('code');
    await tx
      .update(users)
      .set({
        twoFactorSecret: locked.twoFactorPendingSecret,
        twoFactorPendingSecret: null,
        twoFactorEnabledAt: now,
        // The code that confirmed the setup is not a sign-in: it does not block the next sign-in's code.
        twoFactorLastStep: null,
        updatedAt: now,
      })
      .where(eq(users.id, user.id));
    await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, user.id));
    await tx
      .insert(twoFactorRecoveryCodes)
      .values(recoveryCodes.map((c) => ({ userId: user.id, codeHash: recoveryHash(deps, user.id, c), createdAt: now })));
    await revokeUserSessions(tx, deps, user.id, session.sessionId);
    await recordTwoFactorChange(tx, deps, user, true, { recoveryCodes: RECOVERY_CODE_COUNT, otherSessionsEnded: true });
  });
  deps.mailQueued();
  return { recoveryCodes, message: messages.twoFactor.enabled };
}

/**
 * Checks a second factor of a locked user: a TOTP of a step later than the last one accepted (which becomes
 * the last one), or an unused recovery code (which is spent). False for anything else.
 */
async function spendSecondFactor(tx: Executor, deps: Pick<Deps, 'secrets' | 'clock'>, user: UserRow, code: string) {
  if (!user.twoFactorSecret) return false;
  const typed = code.replace(/\s+/g, '');
  if (/^\d{6}$/.test(typed)) {
    const step = matchingStep(deps.secrets.openTotpSecret(user.twoFactorSecret), typed, deps.clock.now());
    if (step === null) return false;
    const accepted = await tx
      .update(users)
      .set({ twoFactorLastStep: step })
      .where(and(eq(users.id, user.id), or(isNull(users.twoFactorLastStep), lt(users.twoFactorLastStep, step))))
      .returning({ id: users.id });
    return accepted.length > 0;
  }
  const spent = await tx
    .update(twoFactorRecoveryCodes)
    .set({ usedAt: deps.clock.now() })
    .where(
      and(
        eq(twoFactorRecoveryCodes.userId, user.id),
        eq(twoFactorRecoveryCodes.codeHash, recoveryHash(deps, user.id, typed)),
        isNull(twoFactorRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: twoFactorRecoveryCodes.id });
  return spent.length > 0;
}

/** POST /api/users/2fa/disable {password, code}: both factors again, then 2FA is off and the member is told. */
export async function disableTwoFactor(
  deps: TwoFactorDeps,
  session: { sessionId: string; user: UserRow },
  body: z.output<typeof twoFactorDisableBody>,
) {
  const { user } = session;
  if (!user.twoFactorEnabledAt) throw new AppError('CONFLICT', messages.twoFactor.notEnabled);
  await assertCurrentPassword(user, body.password);
  const disabled = await deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const locked = await lockUser(tx, user.id);
    if (!locked.twoFactorEnabledAt) throw new AppError('CONFLICT', messages.twoFactor.notEnabled);
    if (!(await spendSecondFactor(tx, deps, locked, body.code))) return false;
    await turnTwoFactorOff(tx, deps, user.id, now);
    await recordTwoFactorChange(tx, deps, user, false);
    return true;
  });
  if (!disabled) throw wrongCode('code');
  deps.mailQueued();
  return { message: messages.twoFactor.disabled };
}

/** Two-factor sign-in off for the user: the secret (set up or pending), the recovery codes and every pending sign-in go. */
async function turnTwoFactorOff(tx: Executor, deps: Pick<Deps, 'clock'>, userId: string, now: Date) {
  await tx
    .update(users)
    .set({ twoFactorSecret: null, twoFactorPendingSecret: null, twoFactorEnabledAt: null, twoFactorLastStep: null, updatedAt: now })
    .where(eq(users.id, userId));
  await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
  await endPendingChallenges(tx, deps, userId);
}

/**
 * Ends every sign-in of the user still waiting for its second factor: a challenge proves a password that a
 * reset, a change or an operator has just replaced or made moot.
 */
export async function endPendingChallenges(tx: Executor, deps: Pick<Deps, 'clock'>, userId: string) {
  await tx
    .update(twoFactorChallenges)
    .set({ consumedAt: deps.clock.now() })
    .where(and(eq(twoFactorChallenges.userId, userId), isNull(twoFactorChallenges.consumedAt)));
}

/**
 * `npm run admin -- --reset-2fa <email>`: the operator turns two-factor sign-in off for a member who lost their
 * authenticator and recovery codes, once their identity was checked out of band. The secret, the recovery
 * codes, every session and every pending sign-in go; the audit log keeps `2fa.reset` (no actor: the operator's
 * command line) and the owner is mailed.
 */
export async function resetTwoFactor(
  deps: Pick<Deps, 'db' | 'clock' | 'secrets' | 'config'>,
  email: string,
): Promise<'reset' | 'not-enabled' | 'not-found'> {
  return deps.db.transaction(async (tx) => {
    const [account] = await tx
      .select()
      .from(users)
      .where(and(eq(users.email, email), isNull(users.deletedAt)))
      .limit(1)
      .for('update');
    if (!account) return 'not-found';
    if (!account.twoFactorEnabledAt && !account.twoFactorPendingSecret) return 'not-enabled';
    const now = deps.clock.now();
    await turnTwoFactorOff(tx, deps, account.id, now);
    await revokeUserSessions(tx, deps, account.id);
    await recordAudit(tx, deps, {
      actorId: null,
      action: '2fa.reset',
      targetType: 'user',
      targetId: account.id,
      before: { twoFactorEnabled: account.twoFactorEnabledAt !== null },
      after: { twoFactorEnabled: false, sessionsEnded: true, by: 'operator (npm run admin -- --reset-2fa)' },
    });
    await enqueueMail(tx, deps, account.email, 'twoFactorReset', {
      firstName: account.firstName,
      securityUrl: securityUrl(deps),
      supportEmail: deps.config.contact.email,
    });
    return 'reset';
  });
}

/**
 * After a wrong second factor (the password was right): once the member's recent sign-ins have seen
 * TWO_FACTOR_ALERT_WRONG_CODES wrong codes, the owner is mailed, at most once an hour. Counted from the
 * challenges themselves (their attempts, since the last successful sign-in and within the hour) and rationed by
 * a column on the user row, so every instance agrees and a restart forgets nothing.
 */
async function alertOwnerOfWrongCodes(tx: Executor, deps: TwoFactorDeps, user: UserRow): Promise<boolean> {
  const now = deps.clock.now();
  const hourAgo = new Date(now.getTime() - TWO_FACTOR_ALERT_INTERVAL_SECONDS * 1000);
  const since = user.lastLoginAt && user.lastLoginAt > hourAgo ? user.lastLoginAt : hourAgo;
  const [counted] = await tx
    .select({ wrong: sql<number>`coalesce(sum(${twoFactorChallenges.attempts}), 0)::int` })
    .from(twoFactorChallenges)
    .where(and(eq(twoFactorChallenges.userId, user.id), gt(twoFactorChallenges.createdAt, since)));
  const wrong = Number(counted?.wrong ?? 0);
  if (wrong < TWO_FACTOR_ALERT_WRONG_CODES) return false;
  const claimed = await tx
    .update(users)
    .set({ twoFactorAlertedAt: now })
    .where(and(eq(users.id, user.id), or(isNull(users.twoFactorAlertedAt), lte(users.twoFactorAlertedAt, hourAgo))))
    .returning({ id: users.id });
  if (claimed.length === 0) return false;
  await enqueueMail(tx, deps, user.email, 'twoFactorFailures', {
    firstName: user.firstName,
    wrongCodes: wrong,
    at: `${now.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    resetUrl: `${deps.config.publicUrl}/forgot-password`,
    securityUrl: securityUrl(deps),
  });
  return true;
}

/** After a right password on an account with 2FA: a random challenge, stored as its HMAC only. */
export async function startChallenge(tx: Executor, deps: Pick<Deps, 'clock' | 'secrets'>, userId: string, remember: boolean) {
  const challenge = randomToken(32);
  const now = deps.clock.now();
  await tx.insert(twoFactorChallenges).values({
    userId,
    challengeHash: deps.secrets.hash(`2fa-challenge:${challenge}`),
    remember,
    createdAt: now,
    expiresAt: new Date(now.getTime() + TWO_FACTOR_CHALLENGE_TTL_SECONDS * 1000),
  });
  return challenge;
}

const challengeEnded = () => new AppError('UNAUTHENTICATED', messages.twoFactor.challengeEnded);

/**
 * POST /api/users/login/2fa {challenge, code}. A wrong code is a 400 and counts as a failed sign-in (the same
 * throttles as wrong passwords, so guessing cannot go on across fresh challenges); the fifth ends the
 * challenge (401). An unknown, used or expired challenge is a 401: sign in again.
 */
export async function completeTwoFactorLogin(
  deps: TwoFactorDeps,
  body: z.output<typeof loginTwoFactorBody>,
  meta: RequestMeta,
  signIn: (tx: Executor, user: UserRow, remember: boolean) => Promise<{ token: string; row: UserRow }>,
  answer: (token: string, row: UserRow) => Promise<AuthSuccess>,
): Promise<AuthSuccess> {
  const challengeHash = deps.secrets.hash(`2fa-challenge:${body.challenge}`);
  const now = deps.clock.now();
  const [found] = await deps.db
    .select({ challenge: twoFactorChallenges, email: users.email })
    .from(twoFactorChallenges)
    .innerJoin(users, eq(users.id, twoFactorChallenges.userId))
    .where(
      and(
        eq(twoFactorChallenges.challengeHash, challengeHash),
        isNull(twoFactorChallenges.consumedAt),
        gt(twoFactorChallenges.expiresAt, now),
        isNull(users.deletedAt),
      ),
    )
    .limit(1);
  if (!found) throw challengeEnded();
  await assertLoginAllowed(deps, found.email, meta.ip);

  type Outcome = { kind: 'ended'; guessed: boolean; alerted: boolean } | { kind: 'wrong'; alerted: boolean } | { kind: 'ok'; token: string; row: UserRow };
  const outcome = await deps.db.transaction(async (tx): Promise<Outcome> => {
    const [challenge] = await tx
      .select()
      .from(twoFactorChallenges)
      .where(and(eq(twoFactorChallenges.id, found.challenge.id), isNull(twoFactorChallenges.consumedAt)))
      .for('update');
    if (!challenge || challenge.expiresAt <= deps.clock.now()) return { kind: 'ended', guessed: false, alerted: false };
    const user = await lockUser(tx, challenge.userId);
    if (!(await spendSecondFactor(tx, deps, user, body.code))) {
      const attempts = challenge.attempts + 1;
      const ended = attempts >= TWO_FACTOR_CHALLENGE_MAX_ATTEMPTS;
      await tx
        .update(twoFactorChallenges)
        .set({ attempts, consumedAt: ended ? deps.clock.now() : null })
        .where(eq(twoFactorChallenges.id, challenge.id));
      const alerted = await alertOwnerOfWrongCodes(tx, deps, user);
      return ended ? { kind: 'ended', guessed: true, alerted } : { kind: 'wrong', alerted };
    }
    await tx.update(twoFactorChallenges).set({ consumedAt: deps.clock.now() }).where(eq(twoFactorChallenges.id, challenge.id));
    const signedIn = await signIn(tx, user, challenge.remember);
    return { kind: 'ok', ...signedIn };
  });

  if (outcome.kind !== 'ok') {
    if (outcome.alerted) deps.mailQueued();
    // A wrong code counts like a wrong password, the one that ends the challenge too.
    if (outcome.kind === 'wrong' || outcome.guessed) await recordLoginFailure(deps, found.email, meta.ip);
    if (outcome.kind === 'ended') throw challengeEnded();
    throw wrongCode('code');
  }
  await recordLoginSuccess(deps, found.email, meta.ip);
  return answer(outcome.token, outcome.row);
}

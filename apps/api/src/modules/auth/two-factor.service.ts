import { randomInt } from 'node:crypto';
import { and, eq, gt, isNull, lt, or } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import {
  messages,
  RECOVERY_CODE_COUNT,
  TOTP_DIGITS,
  TOTP_ISSUER,
  TOTP_PERIOD_SECONDS,
  TOTP_WINDOW_STEPS,
  TWO_FACTOR_CHALLENGE_MAX_ATTEMPTS,
  TWO_FACTOR_CHALLENGE_TTL_SECONDS,
  type AuthSuccess,
  type loginTwoFactorBody,
  type twoFactorDisableBody,
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

type TwoFactorDeps = Deps;

/** RFC 6238 with SHA-1, 6 digits and 30-second steps: what every authenticator app assumes. */
const totpOf = (secret: string) =>
  new TOTP({ algorithm: 'SHA1', digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS, secret: Secret.fromBase32(secret) });

/**
 * The time step a code belongs to when it is right now (one step of clock drift either way), else null. The
 * step, not just "valid", is what lets a sign-in refuse a code already used.
 */
function matchingStep(secret: string, code: string, now: Date): number | null {
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

/** POST /api/users/2fa/setup: a new secret waiting for its first code; it replaces any earlier unconfirmed one. */
export async function setupTwoFactor(deps: TwoFactorDeps, user: UserRow) {
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

/** POST /api/users/2fa/enable: the first right code turns 2FA on and yields the ten recovery codes, once. */
export async function enableTwoFactor(deps: TwoFactorDeps, user: UserRow, code: string) {
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
    await recordTwoFactorChange(tx, deps, user, true, { recoveryCodes: RECOVERY_CODE_COUNT });
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
  if (!(await verifyPassword(user.passwordHash, body.password))) {
    throw new AppError('VALIDATION_ERROR', messages.twoFactor.passwordIncorrect, {
      fields: { password: messages.twoFactor.passwordIncorrect },
    });
  }
  const disabled = await deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const locked = await lockUser(tx, user.id);
    if (!locked.twoFactorEnabledAt) throw new AppError('CONFLICT', messages.twoFactor.notEnabled);
    if (!(await spendSecondFactor(tx, deps, locked, body.code))) return false;
    await tx
      .update(users)
      .set({ twoFactorSecret: null, twoFactorPendingSecret: null, twoFactorEnabledAt: null, twoFactorLastStep: null, updatedAt: now })
      .where(eq(users.id, user.id));
    await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, user.id));
    await tx
      .update(twoFactorChallenges)
      .set({ consumedAt: now })
      .where(and(eq(twoFactorChallenges.userId, user.id), isNull(twoFactorChallenges.consumedAt)));
    await recordTwoFactorChange(tx, deps, user, false);
    return true;
  });
  if (!disabled) throw wrongCode('code');
  deps.mailQueued();
  return { message: messages.twoFactor.disabled };
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

  type Outcome = { kind: 'ended'; guessed: boolean } | { kind: 'wrong' } | { kind: 'ok'; token: string; row: UserRow };
  const outcome = await deps.db.transaction(async (tx): Promise<Outcome> => {
    const [challenge] = await tx
      .select()
      .from(twoFactorChallenges)
      .where(and(eq(twoFactorChallenges.id, found.challenge.id), isNull(twoFactorChallenges.consumedAt)))
      .for('update');
    if (!challenge || challenge.expiresAt <= deps.clock.now()) return { kind: 'ended', guessed: false };
    const user = await lockUser(tx, challenge.userId);
    if (!(await spendSecondFactor(tx, deps, user, body.code))) {
      const attempts = challenge.attempts + 1;
      const ended = attempts >= TWO_FACTOR_CHALLENGE_MAX_ATTEMPTS;
      await tx
        .update(twoFactorChallenges)
        .set({ attempts, consumedAt: ended ? deps.clock.now() : null })
        .where(eq(twoFactorChallenges.id, challenge.id));
      return ended ? { kind: 'ended', guessed: true } : { kind: 'wrong' };
    }
    await tx.update(twoFactorChallenges).set({ consumedAt: deps.clock.now() }).where(eq(twoFactorChallenges.id, challenge.id));
    const signedIn = await signIn(tx, user, challenge.remember);
    return { kind: 'ok', ...signedIn };
  });

  if (outcome.kind !== 'ok') {
    // A wrong code counts like a wrong password, the one that ends the challenge too.
    if (outcome.kind === 'wrong' || outcome.guessed) await recordLoginFailure(deps, found.email, meta.ip);
    if (outcome.kind === 'ended') throw challengeEnded();
    throw wrongCode('code');
  }
  await recordLoginSuccess(deps, found.email, meta.ip);
  return answer(outcome.token, outcome.row);
}

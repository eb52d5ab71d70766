import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import {
  messages,
  OTP_MAX_ATTEMPTS,
  OTP_RESEND_COOLDOWN_SECONDS,
  OTP_TTL_SECONDS,
  RESET_TOKEN_TTL_SECONDS,
  type AuthSuccess,
  type TwoFactorRequired,
  type VerificationRequired,
} from '@terrafund/contracts';
import type { z } from 'zod';
import type {
  changePasswordBody,
  emailOnlyBody,
  loginBody,
  loginTwoFactorBody,
  registerBody,
  resetPasswordBody,
  verifyOtpBody,
} from '@terrafund/contracts';
import type { Executor } from '../../db/client';
import { emailCodes, passwordResetTokens, users, type UserRow } from '../../db/schema';
import type { Deps, RequestMeta } from '../../deps';
import { AppError } from '../../lib/app-error';
import { randomCode, randomToken } from '../../lib/crypto';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../../lib/password';
import { assertPasswordNotGuessable } from '../../lib/password-strength';
import { recordAudit } from '../audit';
import { enqueueMail } from '../mail';
import { publicUser } from '../users';
import {
  assertLoginAllowed,
  clearLoginFailures,
  recordLoginFailure,
  recordLoginSuccess,
  restartCodeCooldown,
  takeCodeCooldown,
} from './login-throttle';
import { createSession, revokeSession, revokeUserSessions } from './session.service';
import { completeTwoFactorLogin, startChallenge } from './two-factor.service';

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

const verificationRequired = (email: string): VerificationRequired => ({
  requiresVerification: true,
  email,
  message: 'Please verify your email. A verification code has been sent.',
});

async function findUserByEmail(tx: Executor, email: string, lock = false): Promise<UserRow | undefined> {
  const query = tx
    .select()
    .from(users)
    .where(and(eq(users.email, email), isNull(users.deletedAt)))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** Mails a fresh code and voids every older one. Callers hold the user row locked and apply the cooldown. */
async function issueVerificationCode(tx: Executor, deps: Deps, user: UserRow, now: Date) {
  await tx
    .update(emailCodes)
    .set({ consumedAt: now })
    .where(and(eq(emailCodes.userId, user.id), isNull(emailCodes.consumedAt)));
  const code = randomCode();
  await tx.insert(emailCodes).values({
    userId: user.id,
    codeHash: deps.secrets.hash(`${user.id}:${code}`),
    createdAt: now,
    expiresAt: new Date(now.getTime() + OTP_TTL_SECONDS * 1000),
  });
  await enqueueMail(tx, deps, user.email, 'verificationCode', { firstName: user.firstName, code });
}

/** What the member themselves typed, which a password must not simply repeat. */
const personalWords = (p: { email: string; firstName?: string; lastName?: string }) => [
  p.email,
  p.email.split('@')[0] ?? '',
  p.firstName ?? '',
  p.lastName ?? '',
];

/**
 * Registers an address, or registers it again while it is unverified: the later registration replaces the
 * earlier one entirely (password, names, phone) and voids its codes and reset links, so only the password of
 * the registration whose code is entered can sign in; someone who registered a victim's address first keeps
 * nothing. A verified address changes nothing and its owner is told. The answer is the same for all three,
 * and the work (hash, rows, mail) happens after it, so its timing cannot tell them apart either.
 */
export async function register(deps: Deps, body: z.output<typeof registerBody>): Promise<VerificationRequired> {
  const email = normalizeEmail(body.email);
  assertPasswordNotGuessable(body.password, 'password', personalWords({ ...body, email }));
  const now = deps.clock.now();
  // A registration always mails a fresh code, inside the cooldown too (the new registrant could not verify
  // otherwise), and the cooldown starts again from it.
  await restartCodeCooldown(deps, email, OTP_RESEND_COOLDOWN_SECONDS);
  deps.tasks.run('registration', async () => {
    const passwordHash = await hashPassword(body.password);
    const registration = { firstName: body.firstName, lastName: body.lastName, phone: body.phone, passwordHash };
    await deps.db.transaction(async (tx) => {
      const inserted = await tx
        .insert(users)
        .values({ email, ...registration, createdAt: now, updatedAt: now })
        .onConflictDoNothing({ target: users.email })
        .returning();
      const created = inserted[0];
      if (created) {
        await issueVerificationCode(tx, deps, created, now);
        return;
      }
      const existing = await findUserByEmail(tx, email, true);
      if (!existing) return;
      if (existing.emailVerifiedAt) {
        await enqueueMail(tx, deps, existing.email, 'registrationAttempt', {
          firstName: existing.firstName,
          loginUrl: `${deps.config.publicUrl}/login`,
          resetUrl: `${deps.config.publicUrl}/forgot-password`,
        });
        return;
      }
      // A registration answered later than this one (another instance) already replaced it: that one stands.
      if (existing.createdAt > now) return;
      const [replaced] = await tx
        .update(users)
        .set({ ...registration, createdAt: now, updatedAt: now })
        .where(eq(users.id, existing.id))
        .returning();
      await tx
        .update(passwordResetTokens)
        .set({ usedAt: now })
        .where(and(eq(passwordResetTokens.userId, existing.id), isNull(passwordResetTokens.usedAt)));
      await revokeUserSessions(tx, deps, existing.id);
      await issueVerificationCode(tx, deps, replaced!, now);
    });
    deps.mailQueued();
  });
  return verificationRequired(email);
}

export async function login(
  deps: Deps,
  body: z.output<typeof loginBody>,
  meta: RequestMeta,
): Promise<AuthSuccess | VerificationRequired | TwoFactorRequired> {
  const email = normalizeEmail(body.email);
  await assertLoginAllowed(deps, email, meta.ip);

  const user = await findUserByEmail(deps.db, email);
  if (!user) {
    await burnPasswordCheck(body.password);
    await recordLoginFailure(deps, email, meta.ip);
    throw new AppError('INVALID_CREDENTIALS', messages.auth.invalidCredentials);
  }
  if (!(await verifyPassword(user.passwordHash, body.password))) {
    await recordLoginFailure(deps, email, meta.ip);
    throw new AppError('INVALID_CREDENTIALS', messages.auth.invalidCredentials);
  }
  if (!user.emailVerifiedAt) {
    await recordLoginSuccess(deps, email, meta.ip);
    // The answer says "verify" either way; a new code is mailed only outside the resend cooldown.
    if ((await takeCodeCooldown(deps, email, OTP_RESEND_COOLDOWN_SECONDS)) === undefined) {
      await deps.db.transaction(async (tx) => {
        const locked = await findUserByEmail(tx, email, true);
        if (locked && !locked.emailVerifiedAt) await issueVerificationCode(tx, deps, locked, deps.clock.now());
      });
      deps.mailQueued();
    }
    return verificationRequired(email);
  }

  if (user.twoFactorEnabledAt) {
    // The password alone proves little here: its failures are forgotten only when the second factor is
    // right too (two-factor.service.ts), so wrong codes cannot be retried forever behind fresh challenges.
    const challenge = await deps.db.transaction((tx) => startChallenge(tx, deps, user.id, body.rememberMe));
    return { twoFactorRequired: true, challenge };
  }
  await recordLoginSuccess(deps, email, meta.ip);

  const signedIn = await deps.db.transaction((tx) => signInWith(tx, deps, user, body.rememberMe, meta));
  return loginAnswer(deps, signedIn.token, signedIn.row);
}

/** The session a successful sign-in opens, in the caller's transaction; the last sign-in time is noted. */
async function signInWith(tx: Executor, deps: Deps, user: UserRow, remember: boolean, meta: RequestMeta) {
  const now = deps.clock.now();
  const [updated] = await tx.update(users).set({ lastLoginAt: now }).where(eq(users.id, user.id)).returning();
  const token = await createSession(tx, deps, { userId: user.id, remember, meta });
  return { token, row: updated! };
}

/** What every successful sign-in answers, with or without a second factor: `{token, user}`. */
async function loginAnswer(deps: Deps, token: string, row: UserRow): Promise<AuthSuccess> {
  // Read after commit: the embedded database runs one transaction at a time.
  return { token, user: await publicUser(deps, row) };
}

/** POST /api/users/login/2fa: the second step of a sign-in, answered exactly like a plain sign-in. */
export async function loginSecondFactor(deps: Deps, body: z.output<typeof loginTwoFactorBody>, meta: RequestMeta) {
  return completeTwoFactorLogin(
    deps,
    body,
    meta,
    (tx, user, remember) => signInWith(tx, deps, user, remember, meta),
    (token, row) => loginAnswer(deps, token, row),
  );
}

export async function verifyOtp(
  deps: Deps,
  body: z.output<typeof verifyOtpBody>,
  meta: RequestMeta,
): Promise<AuthSuccess> {
  const email = normalizeEmail(body.email);
  type Outcome = { error: string; token?: undefined; row?: undefined } | { error: undefined; token: string; row: UserRow };
  const result = await deps.db.transaction(async (tx): Promise<Outcome> => {
    const now = deps.clock.now();
    const user = await findUserByEmail(tx, email, true);
    // Unknown and already-verified addresses get the same answer as a wrong code: no enumeration.
    if (!user || user.emailVerifiedAt) return { error: messages.auth.invalidOtp };

    const [code] = await tx
      .select()
      .from(emailCodes)
      .where(and(eq(emailCodes.userId, user.id), isNull(emailCodes.consumedAt), gt(emailCodes.expiresAt, now)))
      .orderBy(desc(emailCodes.createdAt))
      .limit(1);
    if (!code) return { error: messages.auth.invalidOtp };

    if (!deps.secrets.matches(`${user.id}:${body.otp}`, code.codeHash)) {
      const attempts = code.attempts + 1;
      await tx
        .update(emailCodes)
        .set({ attempts, consumedAt: attempts >= OTP_MAX_ATTEMPTS ? now : null })
        .where(eq(emailCodes.id, code.id));
      return { error: attempts >= OTP_MAX_ATTEMPTS ? messages.auth.otpTooManyAttempts : messages.auth.invalidOtp };
    }

    // The guard on consumed_at makes the code single-use even if two requests got this far.
    const consumed = await tx
      .update(emailCodes)
      .set({ consumedAt: now })
      .where(and(eq(emailCodes.id, code.id), isNull(emailCodes.consumedAt)))
      .returning({ id: emailCodes.id });
    if (consumed.length === 0) return { error: messages.auth.invalidOtp };

    const [verified] = await tx
      .update(users)
      .set({ emailVerifiedAt: now, lastLoginAt: now, updatedAt: now })
      .where(eq(users.id, user.id))
      .returning();
    const token = await createSession(tx, deps, { userId: user.id, remember: body.rememberMe, meta });
    return { token, row: verified!, error: undefined };
  });
  // A wrong try is recorded (committed) before the error is answered.
  if (result.error !== undefined) {
    throw new AppError('VALIDATION_ERROR', result.error, { fields: { otp: result.error } });
  }
  return { token: result.token, user: await publicUser(deps, result.row) };
}

/**
 * Mails a new code to an unverified address. The cooldown is per address, account or not, and the lookup
 * and the mail happen after the answer, so the answer is the same, in the same time, for every address.
 */
export async function resendOtp(deps: Deps, body: z.output<typeof emailOnlyBody>) {
  const email = normalizeEmail(body.email);
  const retryAfter = await takeCodeCooldown(deps, email, OTP_RESEND_COOLDOWN_SECONDS);
  if (retryAfter !== undefined) {
    throw new AppError('RATE_LIMITED', messages.auth.resendCooldown(retryAfter), { retryAfter });
  }
  const now = deps.clock.now();
  deps.tasks.run('resend-code', async () => {
    const sent = await deps.db.transaction(async (tx) => {
      const user = await findUserByEmail(tx, email, true);
      if (!user || user.emailVerifiedAt) return false;
      await issueVerificationCode(tx, deps, user, now);
      return true;
    });
    if (sent) deps.mailQueued();
  });
  return { message: messages.auth.otpSent };
}

/** Mails a reset link to a known address; as with resend, the work happens after the same answer for all. */
export async function forgotPassword(deps: Deps, body: z.output<typeof emailOnlyBody>) {
  const email = normalizeEmail(body.email);
  const now = deps.clock.now();
  deps.tasks.run('password-reset-link', async () => {
    const sent = await deps.db.transaction(async (tx) => {
      const user = await findUserByEmail(tx, email, true);
      if (!user) return false;
      const token = randomToken(32);
      await tx.insert(passwordResetTokens).values({
        userId: user.id,
        tokenHash: deps.secrets.hash(token),
        createdAt: now,
        expiresAt: new Date(now.getTime() + RESET_TOKEN_TTL_SECONDS * 1000),
      });
      // The link is built from PUBLIC_URL, never from the request's Host header.
      const resetUrl = `${deps.config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
      await enqueueMail(tx, deps, user.email, 'passwordReset', { firstName: user.firstName, resetUrl });
      return true;
    });
    if (sent) deps.mailQueued();
  });
  return { message: messages.auth.resetEmailSent };
}

export async function resetPassword(deps: Deps, body: z.output<typeof resetPasswordBody>) {
  // Checked before the token is spent, so a refused password leaves the link usable.
  assertPasswordNotGuessable(body.newPassword, 'newPassword');
  const passwordHash = await hashPassword(body.newPassword);
  const done = await deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    // Single use under concurrency: only the request whose UPDATE flips used_at goes on.
    const [used] = await tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(passwordResetTokens.tokenHash, deps.secrets.hash(body.token)),
          isNull(passwordResetTokens.usedAt),
          gt(passwordResetTokens.expiresAt, now),
        ),
      )
      .returning({ userId: passwordResetTokens.userId });
    if (!used) return undefined;
    const [user] = await tx
      .update(users)
      .set({ passwordHash, updatedAt: now })
      .where(and(eq(users.id, used.userId), isNull(users.deletedAt)))
      .returning();
    if (!user) return undefined;
    // Other outstanding reset links die with this one; every session ends.
    await tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(and(eq(passwordResetTokens.userId, user.id), isNull(passwordResetTokens.usedAt)));
    await revokeUserSessions(tx, deps, user.id);
    await recordAudit(tx, deps, {
      actorId: user.id,
      action: 'password.reset',
      targetType: 'user',
      targetId: user.id,
      before: null,
      after: { sessionsEnded: true },
    });
    await enqueueMail(tx, deps, user.email, 'passwordChanged', { firstName: user.firstName });
    return user.email;
  });
  if (!done) {
    throw new AppError('VALIDATION_ERROR', messages.auth.invalidResetToken, {
      fields: { token: messages.auth.invalidResetToken },
    });
  }
  // Whoever reset the password owns the mailbox: failed sign-ins so far, from any address, no longer count.
  await clearLoginFailures(deps, done);
  deps.mailQueued();
  return { message: messages.auth.passwordReset };
}

export async function changePassword(
  deps: Deps,
  session: { sessionId: string; user: UserRow },
  body: z.output<typeof changePasswordBody>,
) {
  const { user } = session;
  if (!(await verifyPassword(user.passwordHash, body.currentPassword))) {
    throw new AppError('VALIDATION_ERROR', messages.auth.currentPasswordIncorrect, {
      fields: { currentPassword: messages.auth.currentPasswordIncorrect },
    });
  }
  if (body.currentPassword === body.newPassword) {
    throw new AppError('VALIDATION_ERROR', messages.auth.samePassword, {
      fields: { newPassword: messages.auth.samePassword },
    });
  }
  assertPasswordNotGuessable(body.newPassword, 'newPassword', personalWords(user));
  const passwordHash = await hashPassword(body.newPassword);
  await deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, user.id));
    await revokeUserSessions(tx, deps, user.id, session.sessionId);
    await recordAudit(tx, deps, {
      actorId: user.id,
      action: 'password.changed',
      targetType: 'user',
      targetId: user.id,
      before: null,
      after: { otherSessionsEnded: true },
    });
    await enqueueMail(tx, deps, user.email, 'passwordChanged', { firstName: user.firstName });
  });
  deps.mailQueued();
  return { message: messages.auth.passwordChanged };
}

export async function logout(deps: Deps, sessionId: string) {
  await revokeSession(deps.db, deps, sessionId);
  return { message: messages.auth.loggedOut };
}

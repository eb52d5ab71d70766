import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import {
  messages,
  OTP_MAX_ATTEMPTS,
  OTP_RESEND_COOLDOWN_SECONDS,
  OTP_TTL_SECONDS,
  RESET_TOKEN_TTL_SECONDS,
  type AuthSuccess,
  type VerificationRequired,
} from '@terrafund/contracts';
import type { z } from 'zod';
import type {
  changePasswordBody,
  emailOnlyBody,
  loginBody,
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
import { enqueueMail } from '../mail/mail.service';
import { userWithKyc } from '../kyc/kyc.service';
import { createSession, revokeSession, revokeUserSessions } from './session.service';

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

/**
 * Mails a fresh code unless one was sent less than the cooldown ago. Runs with the user row locked, so two
 * simultaneous requests cannot both pass the cooldown. Returns the seconds left when it refuses.
 */
async function issueVerificationCode(tx: Executor, deps: Deps, user: UserRow): Promise<{ retryAfter?: number }> {
  const now = deps.clock.now();
  const [latest] = await tx
    .select({ createdAt: emailCodes.createdAt })
    .from(emailCodes)
    .where(eq(emailCodes.userId, user.id))
    .orderBy(desc(emailCodes.createdAt))
    .limit(1);
  if (latest) {
    const elapsed = (now.getTime() - latest.createdAt.getTime()) / 1000;
    if (elapsed < OTP_RESEND_COOLDOWN_SECONDS) {
      return { retryAfter: Math.max(1, Math.ceil(OTP_RESEND_COOLDOWN_SECONDS - elapsed)) };
    }
  }
  // A new code replaces every older one.
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
  return {};
}

export async function register(
  deps: Deps,
  body: z.output<typeof registerBody>,
  meta: RequestMeta,
): Promise<VerificationRequired> {
  deps.limiter.hit(`register:ip:${meta.ip}`, deps.config.rateLimits.register);
  const email = normalizeEmail(body.email);
  // Hashed before looking anything up, so the answer takes as long whether or not the address is taken.
  const passwordHash = await hashPassword(body.password);
  await deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const inserted = await tx
      .insert(users)
      .values({
        email,
        firstName: body.firstName,
        lastName: body.lastName,
        phone: body.phone,
        passwordHash,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing({ target: users.email })
      .returning();
    const created = inserted[0];
    if (created) {
      await issueVerificationCode(tx, deps, created);
      return;
    }
    // The address has an account. Answer exactly as for a new one, and tell the owner instead.
    const existing = await findUserByEmail(tx, email, true);
    if (!existing) return;
    if (existing.emailVerifiedAt) {
      await enqueueMail(tx, deps, existing.email, 'registrationAttempt', {
        firstName: existing.firstName,
        loginUrl: `${deps.config.publicUrl}/login`,
        resetUrl: `${deps.config.publicUrl}/forgot-password`,
      });
    } else {
      await issueVerificationCode(tx, deps, existing);
    }
  });
  deps.mailQueued();
  return verificationRequired(email);
}

export async function login(
  deps: Deps,
  body: z.output<typeof loginBody>,
  meta: RequestMeta,
): Promise<AuthSuccess | VerificationRequired> {
  const email = normalizeEmail(body.email);
  deps.limiter.hit(`login:ip:${meta.ip}`, deps.config.rateLimits.loginPerAddress);
  deps.limiter.hit(`login:account:${email}`, deps.config.rateLimits.loginPerAccount);

  const user = await findUserByEmail(deps.db, email);
  if (!user) {
    await burnPasswordCheck(body.password);
    throw new AppError('INVALID_CREDENTIALS', messages.auth.invalidCredentials);
  }
  if (!(await verifyPassword(user.passwordHash, body.password))) {
    throw new AppError('INVALID_CREDENTIALS', messages.auth.invalidCredentials);
  }
  deps.limiter.reset(`login:account:${email}`);

  if (!user.emailVerifiedAt) {
    await deps.db.transaction(async (tx) => {
      const locked = await findUserByEmail(tx, email, true);
      if (locked) await issueVerificationCode(tx, deps, locked);
    });
    deps.mailQueued();
    return verificationRequired(email);
  }

  const signedIn = await deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const [updated] = await tx.update(users).set({ lastLoginAt: now }).where(eq(users.id, user.id)).returning();
    const token = await createSession(tx, deps, { userId: user.id, remember: body.rememberMe, meta });
    return { token, row: updated! };
  });
  // Read after commit: the embedded database runs one transaction at a time.
  return { token: signedIn.token, user: await userWithKyc(deps, signedIn.row) };
}

export async function verifyOtp(
  deps: Deps,
  body: z.output<typeof verifyOtpBody>,
  meta: RequestMeta,
): Promise<AuthSuccess> {
  deps.limiter.hit(`verify:ip:${meta.ip}`, deps.config.rateLimits.verifyPerAddress);
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
  return { token: result.token, user: await userWithKyc(deps, result.row) };
}

export async function resendOtp(deps: Deps, body: z.output<typeof emailOnlyBody>, meta: RequestMeta) {
  deps.limiter.hit(`resend:ip:${meta.ip}`, deps.config.rateLimits.resendPerAddress);
  const email = normalizeEmail(body.email);
  const outcome = await deps.db.transaction(async (tx) => {
    const user = await findUserByEmail(tx, email, true);
    // Unknown and already-verified addresses get the same answer as a sent code: no enumeration.
    if (!user || user.emailVerifiedAt) return {};
    return issueVerificationCode(tx, deps, user);
  });
  if (outcome.retryAfter !== undefined) {
    throw new AppError('RATE_LIMITED', messages.auth.resendCooldown(outcome.retryAfter), {
      retryAfter: outcome.retryAfter,
    });
  }
  deps.mailQueued();
  return { message: messages.auth.otpSent };
}

export async function forgotPassword(deps: Deps, body: z.output<typeof emailOnlyBody>, meta: RequestMeta) {
  const email = normalizeEmail(body.email);
  deps.limiter.hit(`forgot:ip:${meta.ip}`, deps.config.rateLimits.forgotPerAddress);
  deps.limiter.hit(`forgot:account:${email}`, deps.config.rateLimits.forgotPerAccount);
  await deps.db.transaction(async (tx) => {
    const user = await findUserByEmail(tx, email, true);
    if (!user) return;
    const now = deps.clock.now();
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
  });
  deps.mailQueued();
  return { message: messages.auth.resetEmailSent };
}

export async function resetPassword(deps: Deps, body: z.output<typeof resetPasswordBody>, meta: RequestMeta) {
  deps.limiter.hit(`reset:ip:${meta.ip}`, deps.config.rateLimits.resetPerAddress);
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
    if (!used) return false;
    const [user] = await tx
      .update(users)
      .set({ passwordHash, updatedAt: now })
      .where(and(eq(users.id, used.userId), isNull(users.deletedAt)))
      .returning();
    if (!user) return false;
    // Other outstanding reset links die with this one; every session ends.
    await tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(and(eq(passwordResetTokens.userId, user.id), isNull(passwordResetTokens.usedAt)));
    await revokeUserSessions(tx, deps, user.id);
    await enqueueMail(tx, deps, user.email, 'passwordChanged', { firstName: user.firstName });
    return true;
  });
  if (!done) {
    throw new AppError('VALIDATION_ERROR', messages.auth.invalidResetToken, {
      fields: { token: messages.auth.invalidResetToken },
    });
  }
  deps.mailQueued();
  return { message: messages.auth.passwordReset };
}

export async function changePassword(
  deps: Deps,
  session: { sessionId: string; user: UserRow },
  body: z.output<typeof changePasswordBody>,
) {
  const { user } = session;
  deps.limiter.hit(`change-password:account:${user.id}`, deps.config.rateLimits.loginPerAccount);
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
  const passwordHash = await hashPassword(body.newPassword);
  await deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, user.id));
    await revokeUserSessions(tx, deps, user.id, session.sessionId);
    await enqueueMail(tx, deps, user.email, 'passwordChanged', { firstName: user.firstName });
  });
  deps.mailQueued();
  return { message: messages.auth.passwordChanged };
}

export async function logout(deps: Deps, sessionId: string) {
  await revokeSession(deps.db, deps, sessionId);
  return { message: messages.auth.loggedOut };
}

/** Makes sure the configured admin exists (decisions section 2); the password is set only on creation. */
export async function ensureAdmin(deps: Pick<Deps, 'db' | 'clock' | 'logger'>, admin: { email: string; password: string }) {
  const email = normalizeEmail(admin.email);
  const now = deps.clock.now();
  const passwordHash = await hashPassword(admin.password);
  const [row] = await deps.db
    .insert(users)
    .values({
      email,
      firstName: 'Admin',
      lastName: 'Terrafund',
      passwordHash,
      role: 'admin',
      emailVerifiedAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: users.email,
      set: {
        role: 'admin',
        emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, excluded.email_verified_at)`,
        deletedAt: null,
        updatedAt: now,
      },
    })
    .returning({ id: users.id, createdAt: users.createdAt });
  deps.logger.info({ adminId: row?.id, email }, 'admin account ensured');
  return row;
}

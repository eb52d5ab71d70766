import { randomUUID } from 'node:crypto';
import { and, desc, eq, gt, inArray, isNotNull, isNull, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
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
import type { Language } from '@terrafund/contracts/i18n';
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
import { emailCodes, passwordResetTokens, sessions, users, type UserRow } from '../../db/schema';
import type { Deps, RequestMeta } from '../../deps';
import { AppError } from '../../lib/app-error';
import { randomCode, randomToken } from '../../lib/crypto';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../../lib/password';
import { recordAudit } from '../audit';
import { enqueueMail, enqueueMailIf } from '../mail';
import { normalizeEmail, publicUser } from '../users';
import {
  assertLoginAllowed,
  clearLoginFailures,
  recordLoginFailure,
  recordLoginSuccess,
  restartCodeCooldown,
  takeCodeCooldown,
} from './login-throttle';
import { assertStrongPassword } from './password-rule';
import { createSession, revokeSession, revokeUserSessions } from '../sessions';
import { completeTwoFactorLogin, endPendingChallenges, startChallenge } from './two-factor.service';

const verificationRequired = (email: string): VerificationRequired => ({
  requiresVerification: true,
  email,
  message: messages.auth.verificationSent,
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

/*
 * Sign-up, resend-code and forgot-password answer alike for every address, and only once their change has
 * committed: so each runs the same statements whatever the address, and the conditions below, evaluated by the
 * database, decide which of them write (OWASP Authentication Cheat Sheet: "Authentication and Error Messages", the
 * same work on every path). None of them returns to JavaScript whether it wrote.
 */
/** The account at `email`: not deleted. */
const liveAccount = (email: string) => and(eq(users.email, email), isNull(users.deletedAt))!;
/** The account at `email` that may be given a code: registered, not verified yet. */
const pendingAccount = (email: string) => and(liveAccount(email), isNull(users.emailVerifiedAt))!;
/** The account at `email` whose owner has verified it. */
const verifiedAccount = (email: string) => and(liveAccount(email), isNotNull(users.emailVerifiedAt))!;
const accountExists = (account: SQL) => sql`exists (select 1 from ${users} where ${account})`;
/** The ids of the accounts `account` matches (none or one): for `user_id in (…)`. */
const accountIds = (tx: Executor, account: SQL) => tx.select({ id: users.id }).from(users).where(account);
const instantParam = (at: Date) => sql`${at.toISOString()}::timestamptz`;

/**
 * `insert into table (columns) select values from users where account`: one row for the account `account` matches,
 * or none, in one statement either way. `users.id` among the values is the matched account's id.
 */
async function insertForAccount(tx: Executor, table: PgTable, values: [PgColumn, SQLWrapper | SQL][], account: SQL) {
  await tx.execute(sql`
    insert into ${table} (${sql.join(values.map(([column]) => sql.identifier(column.name)), sql`, `)})
    select ${sql.join(values.map(([, value]) => value), sql`, `)} from ${users} where ${account}`);
}

/**
 * Mails a fresh code to the unverified account at `email` and voids its older codes, in the same three statements
 * whether or not there is one (`user` is the row read for the address, if any: verified, it gets nothing). Callers
 * hold the user row locked when there is one, and apply the cooldown.
 */
async function issueVerificationCode(tx: Executor, deps: Deps, email: string, user: UserRow | undefined, now: Date) {
  const account = pendingAccount(email);
  await tx
    .update(emailCodes)
    .set({ consumedAt: now })
    .where(and(inArray(emailCodes.userId, accountIds(tx, account)), isNull(emailCodes.consumedAt)));
  const code = randomCode();
  // Without an account the code is hashed all the same (with an id no account has): the same work.
  const codeHash = deps.secrets.hash(`${user?.id ?? randomUUID()}:${code}`);
  await insertForAccount(
    tx,
    emailCodes,
    [
      [emailCodes.userId, users.id],
      [emailCodes.codeHash, sql`${codeHash}`],
      [emailCodes.createdAt, instantParam(now)],
      [emailCodes.expiresAt, instantParam(new Date(now.getTime() + OTP_TTL_SECONDS * 1000))],
    ],
    account,
  );
  await enqueueMailIf(tx, deps, accountExists(account), email, 'verificationCode', { firstName: user?.firstName ?? '', code }, user?.locale);
}

/**
 * Registers an address, or registers it again while it is unverified: the later registration replaces the
 * earlier one entirely (password, names, phone) and voids its codes, reset links and sessions, so only the password
 * of the registration whose code is entered can sign in; someone who registered a victim's address first keeps
 * nothing. A verified address changes nothing and its owner is told by mail. The answer is the same for all three
 * and comes once the registration (or the owner's mail) has committed; before it, every path does the same work:
 * one argon2 hash of the password, then one transaction of the same eight statements, of which the database's
 * conditions decide which write (a code and its mail for a new or pending account, the owner's mail for a verified
 * one). Of two registrations of one pending address at once, the one that commits last stands.
 */
export async function register(deps: Deps, body: z.output<typeof registerBody>, language: Language): Promise<VerificationRequired> {
  const email = normalizeEmail(body.email);
  assertStrongPassword(body.password, 'password', { ...body, email });
  // A registration always mails a fresh code, inside the cooldown too (the new registrant could not verify
  // otherwise), and the cooldown starts again from it.
  await restartCodeCooldown(deps, email, OTP_RESEND_COOLDOWN_SECONDS);
  const passwordHash = await hashPassword(body.password);
  await deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    // The language the sign-up was made in: its code mail, and the account's mails and messages after.
    const registration = { firstName: body.firstName, lastName: body.lastName, phone: body.phone, passwordHash, locale: body.locale ?? language, createdAt: now, updatedAt: now };
    await tx
      .insert(users)
      .values({ email, ...registration })
      .onConflictDoUpdate({ target: users.email, set: registration, setWhere: and(isNull(users.emailVerifiedAt), isNull(users.deletedAt)) });
    const account = await findUserByEmail(tx, email, true);
    const pending = pendingAccount(email);
    // What an earlier registration of this address left: nothing when it is new, kept when it is verified.
    await tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(and(inArray(passwordResetTokens.userId, accountIds(tx, pending)), isNull(passwordResetTokens.usedAt)));
    await tx
      .update(sessions)
      .set({ revokedAt: now })
      .where(and(inArray(sessions.userId, accountIds(tx, pending)), isNull(sessions.revokedAt)));
    await issueVerificationCode(tx, deps, email, account, now);
    await enqueueMailIf(tx, deps, accountExists(verifiedAccount(email)), email, 'registrationAttempt', {
      firstName: account?.firstName ?? '',
      loginUrl: `${deps.config.publicUrl}/login`,
      resetUrl: `${deps.config.publicUrl}/forgot-password`,
    }, account?.locale);
  });
  deps.mailQueued();
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
        if (locked && !locked.emailVerifiedAt) await issueVerificationCode(tx, deps, email, locked, deps.clock.now());
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
 * Mails a new code to an unverified address. The cooldown is per address, account or not, and the code and its mail
 * are written before the answer by the same four statements for every address (issueVerificationCode: for an
 * unknown or verified one they write nothing), so the answer is the same, in the same time, for every address.
 */
export async function resendOtp(deps: Deps, body: z.output<typeof emailOnlyBody>) {
  const email = normalizeEmail(body.email);
  const retryAfter = await takeCodeCooldown(deps, email, OTP_RESEND_COOLDOWN_SECONDS);
  if (retryAfter !== undefined) {
    throw new AppError('RATE_LIMITED', messages.auth.resendCooldown(retryAfter), { retryAfter });
  }
  await deps.db.transaction(async (tx) => {
    const user = await findUserByEmail(tx, email, true);
    await issueVerificationCode(tx, deps, email, user, deps.clock.now());
  });
  deps.mailQueued();
  return { message: messages.auth.otpSent };
}

/**
 * Mails a reset link to a known address. As with resend, the link and its mail are written before the answer by
 * the same three statements for every address; for an unknown one they write nothing.
 */
export async function forgotPassword(deps: Deps, body: z.output<typeof emailOnlyBody>) {
  const email = normalizeEmail(body.email);
  await deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const user = await findUserByEmail(tx, email, true);
    const account = liveAccount(email);
    const token = randomToken(32);
    await insertForAccount(
      tx,
      passwordResetTokens,
      [
        [passwordResetTokens.userId, users.id],
        [passwordResetTokens.tokenHash, sql`${deps.secrets.hash(token)}`],
        [passwordResetTokens.createdAt, instantParam(now)],
        [passwordResetTokens.expiresAt, instantParam(new Date(now.getTime() + RESET_TOKEN_TTL_SECONDS * 1000))],
      ],
      account,
    );
    // The link is built from PUBLIC_URL, never from the request's Host header.
    const resetUrl = `${deps.config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
    await enqueueMailIf(tx, deps, accountExists(account), email, 'passwordReset', { firstName: user?.firstName ?? '', resetUrl }, user?.locale);
  });
  deps.mailQueued();
  return { message: messages.auth.resetEmailSent };
}

export async function resetPassword(deps: Deps, body: z.output<typeof resetPasswordBody>) {
  // Checked before the token is spent, so a refused password leaves the link usable; against the owner's own
  // address and names when the link names a live account.
  const [owner] = await deps.db
    .select({ email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(passwordResetTokens)
    .innerJoin(users, eq(users.id, passwordResetTokens.userId))
    .where(
      and(
        eq(passwordResetTokens.tokenHash, deps.secrets.hash(body.token)),
        isNull(passwordResetTokens.usedAt),
        gt(passwordResetTokens.expiresAt, deps.clock.now()),
      ),
    )
    .limit(1);
  assertStrongPassword(body.newPassword, 'newPassword', owner);
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
    // Other outstanding reset links die with this one; every session ends, and so does every sign-in that got
    // the old password right and waits for its code.
    await tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(and(eq(passwordResetTokens.userId, user.id), isNull(passwordResetTokens.usedAt)));
    await endSessionsForNewPassword(tx, deps, user, 'password.reset', { sessionsEnded: true });
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

/**
 * A new password, reset or changed: every session ends (but the one that changed it, `keepSessionId`), and so does
 * every sign-in that got the old password right and waits for its code; the change is audited and mailed to the owner.
 */
async function endSessionsForNewPassword(
  tx: Executor,
  deps: Deps,
  user: UserRow,
  action: 'password.reset' | 'password.changed',
  after: Record<string, boolean>,
  keepSessionId?: string,
) {
  await revokeUserSessions(tx, deps, user.id, keepSessionId);
  await endPendingChallenges(tx, deps, user.id);
  await recordAudit(tx, deps, { actorId: user.id, action, targetType: 'user', targetId: user.id, before: null, after });
  await enqueueMail(tx, deps, user.email, 'passwordChanged', { firstName: user.firstName });
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
  assertStrongPassword(body.newPassword, 'newPassword', user);
  const passwordHash = await hashPassword(body.newPassword);
  await deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, user.id));
    await endSessionsForNewPassword(tx, deps, user, 'password.changed', { otherSessionsEnded: true }, session.sessionId);
  });
  deps.mailQueued();
  return { message: messages.auth.passwordChanged };
}

export async function logout(deps: Deps, sessionId: string) {
  await revokeSession(deps.db, deps, sessionId);
  return { message: messages.auth.loggedOut };
}

import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { idColumn, instant } from './columns';
import { userIdColumn } from './users';

/** Server-side sessions; the bearer token names one and carries a secret whose HMAC is stored here. */
export const sessions = pgTable(
  'sessions',
  {
    id: idColumn(),
    userId: userIdColumn('user_id', { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    remember: boolean('remember').notNull().default(false),
    userAgent: text('user_agent'),
    ipAddress: text('ip_address'),
    createdAt: instant('created_at').notNull().defaultNow(),
    lastSeenAt: instant('last_seen_at').notNull().defaultNow(),
    expiresAt: instant('expires_at').notNull(),
    revokedAt: instant('revoked_at'),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
);

/** E-mail verification codes: HMAC of the 6 digits, 10 minutes, 5 wrong tries. */
export const emailCodes = pgTable(
  'email_codes',
  {
    id: idColumn(),
    userId: userIdColumn('user_id', { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    createdAt: instant('created_at').notNull(),
    expiresAt: instant('expires_at').notNull(),
    /** Set when the code was used, voided by too many tries, or replaced by a newer code. */
    consumedAt: instant('consumed_at'),
  },
  (t) => [
    index('email_codes_user_id_idx').on(t.userId, t.createdAt.desc()),
    check('email_codes_attempts_check', sql`${t.attempts} >= 0`),
  ],
);

/** Password reset tokens: HMAC of 32 random bytes, 30 minutes, single use. */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: idColumn(),
    userId: userIdColumn('user_id', { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: instant('created_at').notNull(),
    expiresAt: instant('expires_at').notNull(),
    usedAt: instant('used_at'),
  },
  (t) => [index('password_reset_tokens_user_id_idx').on(t.userId)],
);

/** Two-factor recovery codes: HMAC of each of the ten codes, each usable once. */
export const twoFactorRecoveryCodes = pgTable(
  'two_factor_recovery_codes',
  {
    id: idColumn(),
    userId: userIdColumn('user_id', { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: instant('created_at').notNull(),
    usedAt: instant('used_at'),
  },
  (t) => [index('two_factor_recovery_codes_user_id_idx').on(t.userId)],
);

/**
 * The step between a right password and a right second factor: HMAC of a random challenge, 10 minutes,
 * 5 wrong codes, single use.
 */
export const twoFactorChallenges = pgTable(
  'two_factor_challenges',
  {
    id: idColumn(),
    userId: userIdColumn('user_id', { onDelete: 'cascade' }),
    challengeHash: text('challenge_hash').notNull().unique(),
    remember: boolean('remember').notNull().default(false),
    attempts: integer('attempts').notNull().default(0),
    createdAt: instant('created_at').notNull(),
    expiresAt: instant('expires_at').notNull(),
    /** Set when used, or ended by too many wrong codes. */
    consumedAt: instant('consumed_at'),
  },
  (t) => [
    index('two_factor_challenges_user_id_idx').on(t.userId),
    check('two_factor_challenges_attempts_check', sql`${t.attempts} >= 0`),
  ],
);

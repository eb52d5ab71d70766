import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, uuid, type ReferenceConfig } from 'drizzle-orm/pg-core';
import { idColumn, instant } from './columns';

export const users = pgTable(
  'users',
  {
    id: idColumn(),
    /** Stored lower-cased and trimmed; unique. */
    email: text('email').notNull().unique(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    phone: text('phone').notNull().default(''),
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: ['user', 'admin'] }).notNull().default('user'),
    emailVerifiedAt: instant('email_verified_at'),
    kycStatus: text('kyc_status', { enum: ['not_started', 'pending', 'approved', 'rejected'] })
      .notNull()
      .default('not_started'),
    kycVerified: boolean('kyc_verified').notNull().default(false),
    lastLoginAt: instant('last_login_at'),
    /** The TOTP secret in use, sealed with a key derived from APP_SECRET; null while 2FA is off. */
    twoFactorSecret: text('two_factor_secret'),
    /** A secret set up but not yet confirmed with a code (a new setup replaces it). */
    twoFactorPendingSecret: text('two_factor_pending_secret'),
    twoFactorEnabledAt: instant('two_factor_enabled_at'),
    /** The last 30-second step whose code was accepted: a code is never accepted twice (no replay). */
    twoFactorLastStep: integer('two_factor_last_step'),
    /**
     * When the owner was last mailed that someone got their password right and then failed the second step:
     * at most one such mail an hour, whichever instance counts the wrong codes.
     */
    twoFactorAlertedAt: instant('two_factor_alerted_at'),
    createdAt: instant('created_at').notNull().defaultNow(),
    updatedAt: instant('updated_at').notNull().defaultNow(),
    /** Soft delete: the row stays for the money and audit history that will point at it. */
    deletedAt: instant('deleted_at'),
    /**
     * When the member closed the account (modules/privacy): the e-mail is then the tombstone `closed-<id>@invalid`,
     * the personal fields are erased and no password opens it. Admins still see the row with its kept records.
     */
    closedAt: instant('closed_at'),
    /**
     * The language the member reads (issue 35): their mails, and the API's messages while they are signed in.
     * Set at sign-up to the language the sign-up was made in, changed with PATCH /api/users/profile {locale}.
     */
    locale: text('locale', { enum: ['en', 'es', 'fr'] }).notNull().default('en'),
  },
  (t) => [
    check('users_role_check', sql`${t.role} in ('user', 'admin')`),
    check('users_kyc_status_check', sql`${t.kycStatus} in ('not_started', 'pending', 'approved', 'rejected')`),
    check('users_email_lowercase', sql`${t.email} = lower(${t.email})`),
    check('users_locale_check', sql`${t.locale} in ('en', 'es', 'fr')`),
    index('users_created_at_idx').on(t.createdAt.desc(), t.id.desc()),
  ],
);

export type UserRow = typeof users.$inferSelect;

/** The member a row belongs to: a required reference to users.id (here, so no schema file imports users.ts back). */
export function userIdColumn(name = 'user_id', actions?: ReferenceConfig['actions']) {
  return uuid(name)
    .notNull()
    .references(() => users.id, actions);
}

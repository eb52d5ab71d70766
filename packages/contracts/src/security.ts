import { z } from 'zod';
import { authSuccess } from './kyc';
import { queryCount } from './list-fields';
import { messages } from './messages';

/**
 * Two-factor sign-in, sessions and the admin audit log (issue 15). TOTP as RFC 6238 with the parameters every
 * authenticator app assumes: SHA-1, 6 digits, 30-second steps, one step of clock drift either way.
 */
export const TOTP_ISSUER = 'Terrafund';
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_WINDOW_STEPS = 1;
export const RECOVERY_CODE_COUNT = 10;
export const TWO_FACTOR_CHALLENGE_TTL_SECONDS = 10 * 60;
export const TWO_FACTOR_CHALLENGE_MAX_ATTEMPTS = 5;
/**
 * After a right password, this many wrong second factors (counted over the member's sign-in attempts of the last
 * hour, since their last successful sign-in) mail the owner, at most once an hour (docs/security.md §8).
 */
export const TWO_FACTOR_ALERT_WRONG_CODES = 3;
export const TWO_FACTOR_ALERT_INTERVAL_SECONDS = 60 * 60;

const t = messages.twoFactor;

/** A current 6-digit code from the authenticator app (spaces typed between the digits are dropped). */
export const totpCodeField = z
  .string({ error: t.codeRequired })
  .transform((value) => value.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, t.codeRequired));

/** A TOTP code or one of the recovery codes (`xxxxx-xxxxx`, case and dash optional). */
export const secondFactorField = z
  .string({ error: t.recoveryOrCodeRequired })
  .trim()
  .min(1, t.recoveryOrCodeRequired)
  .max(64, t.recoveryOrCodeRequired);

/**
 * The account's current password, which every two-factor change asks for again (a session alone must not be
 * able to put its own authenticator on the account). Missing or wrong, the answer is the same field error.
 */
const currentPasswordField = z.string({ error: t.passwordIncorrect }).min(1, t.passwordIncorrect).max(128, t.passwordIncorrect);

export const twoFactorSetupBody = z.object({ password: currentPasswordField });
export type TwoFactorSetupBody = z.input<typeof twoFactorSetupBody>;

export const twoFactorSetupResponse = z.object({ secret: z.string(), otpauthUrl: z.string() });
export type TwoFactorSetup = z.infer<typeof twoFactorSetupResponse>;

export const twoFactorEnableBody = z.object({ password: currentPasswordField, code: totpCodeField });
export type TwoFactorEnableBody = z.input<typeof twoFactorEnableBody>;

export const recoveryCodesResponse = z.object({ recoveryCodes: z.array(z.string()), message: z.string() });
export type RecoveryCodes = z.infer<typeof recoveryCodesResponse>;

export const twoFactorDisableBody = z.object({
  password: currentPasswordField,
  code: secondFactorField,
});
export type TwoFactorDisableBody = z.input<typeof twoFactorDisableBody>;

export const loginTwoFactorBody = z.object({
  challenge: z.string({ error: t.challengeEnded }).min(1, t.challengeEnded).max(200, t.challengeEnded),
  code: secondFactorField,
});
export type LoginTwoFactorBody = z.input<typeof loginTwoFactorBody>;
export const loginTwoFactorResponse = authSuccess;

/** The sign-in form's second step. */
export const secondFactorForm = z.object({ code: secondFactorField });
export type SecondFactorForm = z.input<typeof secondFactorForm>;

export const sessionSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  userAgent: z.string().nullable(),
  current: z.boolean(),
});
export type Session = z.infer<typeof sessionSchema>;
export const sessionListSchema = z.array(sessionSchema);

/** The actions the audit log records, by these exact names. */
export const AUDIT_ACTIONS = [
  'kyc.approved',
  'kyc.rejected',
  'withdrawal.completed',
  'withdrawal.failed',
  'project.created',
  'project.updated',
  'project.deleted',
  'admin.promoted',
  '2fa.enabled',
  '2fa.disabled',
  '2fa.reset',
  'session.revoked',
  'password.changed',
  'password.reset',
  'payment.activated',
  'payment.rejected',
  'user.updated',
  'user.deleted',
  'data.exported',
  'account.closed',
  'kyc.purged',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_PAGE_DEFAULT = 50;
export const AUDIT_PAGE_MAX = 100;

const a = messages.admin;
const auditDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, a.auditDateInvalid)
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
  }, a.auditDateInvalid);

/** GET /api/admin/audit. `from` and `to` are UTC days, both included. */
export const auditQuery = z
  .object({
    cursor: z.string().max(200, a.cursorInvalid).optional(),
    limit: queryCount(a.auditLimitInvalid, AUDIT_PAGE_MAX, AUDIT_PAGE_DEFAULT),
    actor: z.string().trim().toLowerCase().max(254).optional(),
    action: z
      .string()
      .trim()
      .max(64, a.auditActionInvalid)
      .regex(/^[a-z0-9_.-]*$/i, a.auditActionInvalid)
      .optional(),
    from: auditDate.optional(),
    to: auditDate.optional(),
    format: z.enum(['json', 'csv']).optional().default('json'),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ['from'], message: a.auditRangeInvalid });
export type AuditQuery = z.input<typeof auditQuery>;

export const auditRowSchema = z.object({
  id: z.string(),
  at: z.string(),
  actorEmail: z.string().nullable(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string(),
  details: z.unknown(),
});
export type AuditRow = z.infer<typeof auditRowSchema>;
export const auditListSchema = z.array(auditRowSchema);

/**
 * The step-up asked before money or data leaves the account (withdrawals, the data export, closing it): the password
 * on an account without two-factor authentication, a current 6-digit code on one with it (recovery codes are not
 * accepted here). Both are optional in the schema: which one is needed depends on the account, so the server says
 * which is missing (400 on `password` "Incorrect password" or on `code` "Invalid code").
 */
export const stepUpFields = {
  password: z.string().max(128, messages.stepUp.passwordIncorrect).optional(),
  code: z.string().max(20, messages.stepUp.codeInvalid).optional(),
};
export const STEP_UP_FAILURES_LIMIT = 5;
export const STEP_UP_FAILURES_WINDOW_SECONDS = 15 * 60;
